// swift-tools-version:6.0
// rhr: resting heart rate from HealthKit and Health Connect, one honest per-day trend.
// No outside packages: the toolchain plus Debian C libraries through system-library targets.
import PackageDescription
import class Foundation.ProcessInfo

/// scripts/fuzz builds with RHR_FUZZ set and libFuzzer's flags, which SwiftPM gives every target, a build tool too: the
/// build-info tool cannot be built so, and the fuzz build names no version (RHRVersion).
let fuzzing = ProcessInfo.processInfo.environment["RHR_FUZZ"] != nil

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
        // Phone feeds over HTTP (docs/design.md section 4b); TLS through its GnuTLS support.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // The report's pages (docs/design.md section 6): cairo draws PDF, SVG and PNG, pango lays out the text. Its
        // pkg-config names, separated by spaces; the last a file of this package (pango-headers.pc says why).
        .systemLibrary(name: "CPangoCairo",
                       pkgConfig: "cairo harfbuzz \(Context.packageDirectory)/Sources/CPangoCairo/pango-headers.pc",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // What the two signal-handling C targets below share: which signals, and handing one on to the handler before.
        .target(name: "CSignalChain"),
        // The full-screen session's signal handlers and their state, in C: a handler must be async-signal-safe.
        .target(name: "CTerminalSignals", dependencies: ["CSignalChain"]),
        // Temporary copies of health data, kept where a signal handler can remove them (async-signal-safe, in C).
        .target(name: "CTemporaryFiles", dependencies: ["CSignalChain"]),

        // rhr's version (VERSION) and the commit it is built from, written at build time for RHRCore (RHRVersion).
        .executableTarget(name: "rhr-build-info"),
        .plugin(name: "RHRBuildInfo", capability: .buildTool(), dependencies: ["rhr-build-info"]),

        // Layers, arrows pointing down only (docs/design.md section 3; scripts/check-graph holds each list to the
        // imports of the target's files).
        .target(name: "RHRCore", swiftSettings: fuzzing ? [.define("RHR_FUZZ_BUILD")] : [],
                plugins: fuzzing ? [] : ["RHRBuildInfo"]),
        // The process's dealings with the system: the clock, the wake-up pipe, private files, scratch directories.
        .target(name: "RHRSystem", dependencies: ["RHRCore", "CTemporaryFiles"]),
        .target(name: "RHRJSON", dependencies: ["RHRCore"]),
        .target(name: "RHRFormats", dependencies: ["RHRCore", "RHRJSON", "RHRSystem", "CArchive", "CSQLite"]),
        .target(name: "RHRStore", dependencies: ["RHRCore", "CSQLite"]),
        // The daemon's protocol and a client of its socket: what the dashboard and commands talk to it with. No HTTP.
        .target(name: "RHRDaemonClient", dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRSystem"]),
        .target(name: "RHRDaemon",
                dependencies: ["RHRCore", "RHRJSON", "RHRStore", "RHRFormats", "RHRSystem", "RHRDaemonClient", "CMicroHTTPD"]),
        // The screen model: cells, styles, keys, the device protocol. Pure: no ncurses.
        .target(name: "RHRScreen"),
        .target(name: "RHRTerminal", dependencies: ["RHRScreen", "CNCurses", "CTerminalSignals"]),
        .target(name: "RHRDashboard", dependencies: ["RHRCore", "RHRScreen"]),
        // The report of the trend on paper or as an image: draws what the pure dashboard's `TrendReport` holds.
        .target(name: "RHRReport", dependencies: ["RHRCore", "RHRDashboard", "RHRSystem", "CPangoCairo"]),
        // The dashboard's runtime: its run loop, background loads, reads of the store and daemon feed. Neither the
        // HTTP server nor ncurses: the terminal is handed to it.
        .target(name: "RHRLive",
                dependencies: ["RHRCore", "RHRStore", "RHRSystem", "RHRDaemonClient", "RHRDashboard", "RHRScreen",
                               "RHRReport"]),
        // Argument parsing and every command, as a library so tests can call them without a process.
        .target(name: "RHRCommands",
                dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRStore", "RHRSystem", "RHRDaemonClient", "RHRDaemon",
                               "RHRDashboard", "RHRScreen", "RHRTerminal", "RHRLive", "RHRReport"]),
        .executableTarget(name: "rhr", dependencies: ["RHRCommands"]),

        .executableTarget(
            name: "rhr-bench",
            dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRStore", "RHRSystem", "RHRDaemonClient", "RHRDaemon",
                           "RHRDashboard", "RHRScreen", "RHRLive", "RHRReport", "RHRTestSupport"]
        ),

        // What the tests share (temporary directories, polling, test dates, process spawning, an in-process
        // daemon, the real rhr in a private home). A regular target so rhr-bench can spawn processes with it too.
        .target(name: "RHRTestSupport", dependencies: ["RHRCore", "RHRJSON", "RHRStore", "RHRDaemonClient", "RHRDaemon", "CSQLite"]),

        .testTarget(name: "RHRJSONTests", dependencies: ["RHRJSON", "RHRTestSupport"]),
        .testTarget(name: "RHRCoreTests", dependencies: ["RHRCore", "RHRTestSupport"]),
        .testTarget(name: "RHRSystemTests", dependencies: ["RHRCore", "RHRSystem", "RHRTestSupport"]),
        .testTarget(name: "RHRFormatsTests", dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRSystem", "RHRTestSupport", "CArchive", "CSQLite"]),
        .testTarget(name: "RHRStoreTests", dependencies: ["RHRCore", "RHRFormats", "RHRStore", "RHRTestSupport", "CSQLite"]),
        // Argument parsing and every command, called in this process with their output captured.
        .testTarget(name: "RHRCommandsTests",
                    dependencies: ["RHRCommands", "RHRCore", "RHRJSON", "RHRFormats", "RHRStore", "RHRDaemonClient", "RHRDaemon",
                                   "RHRScreen", "RHRTestSupport"]),
        // The real `rhr` binary, spawned: exit codes, streams, files.
        .testTarget(name: "RHRCommandLineTests", dependencies: ["RHRCore", "RHRTestSupport", "CSQLite"]),
        .testTarget(name: "RHRDaemonTests",
                    dependencies: ["RHRDaemon", "RHRDaemonClient", "RHRStore", "RHRJSON", "RHRFormats", "RHRCore", "RHRTestSupport"]),
        .testTarget(name: "RHRScreenTests", dependencies: ["RHRScreen"]),
        // The pure dashboard on the screen buffer, and its run loop (RHRLive) against a scripted terminal.
        .testTarget(name: "RHRDashboardTests", dependencies: ["RHRCore", "RHRScreen", "RHRDashboard", "RHRLive", "RHRTestSupport"],
                    exclude: ["Golden"]),
        // The live link over a real daemon socket and a real store.
        .testTarget(name: "RHRLiveTests",
                    dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRStore", "RHRDaemonClient", "RHRDashboard", "RHRScreen",
                                   "RHRLive", "RHRTestSupport"]),
        // The report's pages: the demo's SVG against a committed one, the PDF's text, a PNG's size.
        .testTarget(name: "RHRReportTests",
                    dependencies: ["RHRCore", "RHRDashboard", "RHRFormats", "RHRLive", "RHRReport", "RHRStore",
                                   "RHRTestSupport"],
                    exclude: ["Golden"]),
        // Drives the real `rhr` (built by `swift build`) in tmux.
        .testTarget(name: "RHRDashboardEndToEndTests", dependencies: ["RHRCore", "RHRStore", "RHRTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz targets (Fuzz/, docs/design.md section 8): only when scripts/fuzz builds them, with libFuzzer and
// AddressSanitizer in a build directory of their own; `swift build` never sees them.
if fuzzing {
    package.targets.append(.executableTarget(
        name: "rhr-fuzz", dependencies: ["RHRCore", "RHRJSON", "RHRFormats", "RHRDaemon", "RHRDashboard", "RHRScreen"],
        path: "Fuzz/Sources"))
}
