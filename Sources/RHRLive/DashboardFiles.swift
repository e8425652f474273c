import Foundation
import RHRDashboard
import RHRSystem

/// The dashboard's own files: the config (`$XDG_CONFIG_HOME/rhr/config`, else `~/.config/rhr/config`) and one
/// view state file per store (`$XDG_STATE_HOME/rhr/`, else `~/.local/state/rhr/`). Directories are created
/// 0700 and files written 0600: how a person looks at their health data is private too. Parsing is pure
/// (`DashboardConfig`, `ViewStateFile`); only reading and writing happen here.
public enum DashboardFiles {
    /// An XDG base directory: the variable when it holds an absolute path (the spec ignores relative ones),
    /// else `fallback` under the home directory.
    public static func base(_ variable: String, fallback: String, environment: [String: String]) -> String {
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
            throw ConfigError.unreadable(path)
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
    public static func saveViewState(_ settings: ViewSettings, store key: String,
                                     environment: [String: String]) throws(PrivateFiles.Failure) {
        let directory = stateDirectory(environment: environment)
        try PrivateFiles.makeDirectories(directory)
        let path = directory + "/" + ViewStateFile.fileName(forStore: key)
        try PrivateFiles.replace(path, with: Array(ViewStateFile.format(settings, store: key).utf8),
                                 temporary: path + ".\(getpid()).tmp")
    }
}
