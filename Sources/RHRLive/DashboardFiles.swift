import Foundation
import RHRDashboard

/// The dashboard's own files: the config (`$XDG_CONFIG_HOME/rhr/config`, else `~/.config/rhr/config`) and one
/// view state file per store (`$XDG_STATE_HOME/rhr/`, else `~/.local/state/rhr/`). Directories are created
/// 0700 and files written 0600: how a person looks at their health data is private too. Parsing is pure
/// (`DashboardConfig`, `ViewStateFile`); only reading and writing happen here.
public enum DashboardFiles {
    /// An XDG base directory: the variable when it holds an absolute path (the spec ignores relative ones),
    /// else `fallback` under the home directory.
    static func base(_ variable: String, fallback: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/" + fallback
    }

    public static func configPath(environment: [String: String]) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/rhr/config"
    }

    public static func stateDirectory(environment: [String: String]) -> String {
        base("XDG_STATE_HOME", fallback: ".local/state", environment: environment) + "/rhr"
    }

    /// The key a store's view is kept under: its path from the root, symbolic links resolved when it exists, so
    /// every way of naming one store finds the same view.
    public static func storeKey(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// The config; the defaults when there is no file. A file that cannot be read or holds a bad line is an
    /// error naming the file (and the line).
    public static func loadConfig(environment: [String: String]) throws -> DashboardConfig {
        let path = configPath(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return DashboardConfig() }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(path: path, line: 0, message: "cannot be read as UTF-8 text")
        }
        return try DashboardConfig.parse(text, path: path)
    }

    /// The view kept for the store `key`, if there is one; a missing, unreadable or corrupt file is no view.
    public static func loadViewState(store key: String, environment: [String: String]) -> ViewSettings? {
        let path = stateDirectory(environment: environment) + "/" + ViewStateFile.fileName(forStore: key)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return ViewStateFile.parse(text, store: key)
    }

    /// Keeps the view for the store `key`: written to a temporary file and renamed over the old one, so a
    /// crash never leaves half a file.
    public static func saveViewState(_ settings: ViewSettings, store key: String, environment: [String: String]) throws {
        let directory = stateDirectory(environment: environment)
        try makePrivateDirectory(directory)
        let path = directory + "/" + ViewStateFile.fileName(forStore: key)
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: temporary, errno) }
        let bytes = Array(ViewStateFile.format(settings, store: key).utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let writeErrno = errno
        close(fd)
        guard written == bytes.count else {
            unlink(temporary)
            throw FileError(path: temporary, writeErrno)
        }
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw FileError(path: path, e)
        }
    }

    /// Creates `path` and any missing parents, each 0700.
    static func makePrivateDirectory(_ path: String) throws {
        var missing: [String] = []
        var current = path
        while !current.isEmpty && current != "/" && !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
        }
        for dir in missing.reversed() where mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw FileError(path: dir, errno)
        }
    }

    public struct FileError: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        init(path: String, _ code: Int32) {
            self.path = path
            self.code = code
        }
        public var description: String { "\(path): \(String(cString: strerror(code)))" }
    }
}
