import Foundation
import RHRCore
import RHRStore

/// Where the store lives and how commands open it: private directories, the default path, a temporary store.
enum StorePath {
    static func defaultPath(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/rhr/rhr.sqlite"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/rhr/rhr.sqlite"
    }

    /// `path` from the root, the way the dashboard keys a store's view: symbolic links resolved when it exists.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// Creates the store's directory and any missing parents, each readable by its owner only.
    static func preparePrivateDirectory(for storePath: String) throws {
        var missing: [String] = []
        var current = PathText.parent(storePath)
        while current != "/" && current != "." && !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = PathText.parent(current)
        }
        for dir in missing.reversed() {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                throw CommandFailure("\(dir): cannot create the store's directory: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// Opens the store the invocation names, creating its private directory when needed.
func openStore(_ invocation: Invocation) throws -> HealthDatabase {
    let path = invocation.storePath
    try StorePath.preparePrivateDirectory(for: path)
    do {
        return try HealthDatabase(path: path, machineZone: invocation.machineZone)
    } catch {
        throw CommandFailure(error.message)
    }
}

/// A store in a fresh private directory, removed when the value goes away.
final class TemporaryStore {
    let directory: String
    var path: String { directory + "/rhr.sqlite" }

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/rhr-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CommandFailure("cannot create a temporary store: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
    }

    func open(machineZone: TimeZone) throws -> HealthDatabase {
        do { return try HealthDatabase(path: path, machineZone: machineZone) } catch { throw CommandFailure(error.message) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
