// swift-tools-version:6.0
// rhr: resting heart rate from HealthKit and Health Connect, one honest per-day trend.
// No outside packages: the toolchain plus Debian C libraries through system-library targets.
import PackageDescription

let package = Package(
    name: "rhr",
    products: [
        .executable(name: "rhr", targets: ["rhr"]),
    ],
    targets: [
        // C libraries, each behind a small shim header.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNCurses", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),

        // Layers, arrows pointing down only.
        .target(name: "RHRCore"),
        .target(name: "RHRFormats", dependencies: ["RHRCore", "CArchive", "CSQLite"]),
        .target(name: "RHRStore", dependencies: ["RHRCore", "CSQLite"]),
        .target(name: "RHRDaemon", dependencies: ["RHRCore", "RHRStore", "RHRFormats"]),
        .target(name: "RHRTerminal", dependencies: ["CNCurses"]),
        .target(name: "RHRDashboard", dependencies: ["RHRCore", "RHRTerminal"]),
        // The dashboard's reads of the store (all of it, the recent days, the days a push changed) and its daemon feed.
        .target(name: "RHRLive", dependencies: ["RHRCore", "RHRFormats", "RHRStore", "RHRDaemon", "RHRDashboard"]),
        .executableTarget(
            name: "rhr",
            dependencies: ["RHRCore", "RHRFormats", "RHRStore", "RHRDaemon", "RHRDashboard", "RHRTerminal", "RHRLive"]
        ),

        .executableTarget(
            name: "rhr-bench",
            dependencies: ["RHRCore", "RHRFormats", "RHRStore", "RHRDaemon", "RHRDashboard", "RHRTerminal", "RHRLive"]
        ),

        .testTarget(name: "RHRCoreTests", dependencies: ["RHRCore"]),
        .testTarget(name: "RHRFormatsTests", dependencies: ["RHRCore", "RHRFormats"]),
        .testTarget(name: "RHRStoreTests", dependencies: ["RHRCore", "RHRFormats", "RHRStore"]),
        .testTarget(name: "RHRCommandLineTests", dependencies: ["RHRCore"]),
        .testTarget(name: "RHRDaemonTests", dependencies: ["RHRDaemon", "RHRStore", "RHRFormats", "RHRCore"]),
        .testTarget(name: "RHRDashboardTests", dependencies: ["RHRCore", "RHRTerminal", "RHRDashboard"]),
        // The live link over a real daemon socket and a real store.
        .testTarget(name: "RHRLiveTests",
                    dependencies: ["RHRCore", "RHRFormats", "RHRStore", "RHRDaemon", "RHRDashboard", "RHRTerminal", "RHRLive"]),
        // Drives the real `rhr` (built by `swift build`) in tmux.
        .testTarget(name: "RHRDashboardEndToEndTests", dependencies: ["RHRCore", "RHRStore"]),
    ],
    swiftLanguageModes: [.v6]
)
