/// The version `rhr --version` prints, and the build: both from one place, the repository's `VERSION` file and the
/// commit it was built from, written at build time by the RHRBuildInfo plugin (`RHRBuildInfo.swift`,
/// docs/design.md section 5). Two builds of one version are told apart by their commit (section 8: version skew).
public enum RHRVersion {
    /// "0.1.0".
    public static let current = number

    /// The commit's first 12 digits ("c765f90a1b2c"), or "unknown build" for a build made without git's files (from a
    /// tarball).
    public static let build = commit ?? unknownBuild

    public static let unknownBuild = "unknown build"

    /// "0.1.0 (build c765f90a1b2c)", "0.1.0 (unknown build)": what `rhr --version` and `rhr status` say.
    public static var described: String { describe(version: current, build: build) }

    /// How a version and a build are said, this one's or another rhr's (a daemon's).
    public static func describe(version: String, build: String?) -> String {
        guard let build, build != unknownBuild else { return "\(version) (\(build ?? "build not named"))" }
        return "\(version) (build \(build))"
    }
}

#if RHR_FUZZ_BUILD
/// The fuzz build (scripts/fuzz) makes no build info (Package.swift says why): it names no version.
extension RHRVersion {
    static let number = "fuzz"
    static let commit: String? = nil
}
#endif
