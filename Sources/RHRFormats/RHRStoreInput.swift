// An rhr store given to `rhr import`: named as one, with the way to use it.
import Foundation
import RHRCore

/// An rhr store is an SQLite file too, and would otherwise be read as a Health Connect export and refused for the
/// tables it lacks. It is told by the mark every store carries from its first moment (`meta`: application = rhr,
/// RHRStore's `StoreFile`), looked at read-only as an immutable file, so nothing of it is locked or written.
enum RHRStoreInput {
    /// The refusal of an rhr store at `path`; nil for any other file. `shown`: how the input is named when `path` is a
    /// private copy of it (a pipe spooled to a file), which no `--store` can name.
    static func refusal(path: String, shown: String? = nil) -> InputError? {
        guard let head = try? ReadOnlyFile.head(path: path, count: 16), InputKind.isSQLite(head), isStore(path) else { return nil }
        guard let shown else {
            let quoted = PathText.shellWord(path)
            return InputError(path: path, message: "is an rhr store, not an export; to use it: --store \(quoted) "
                + "(rhr --store \(quoted) shows it)")
        }
        return InputError(path: shown, message: "is an rhr store, not an export; to use it, give its file with --store")
    }

    private static func isStore(_ path: String) -> Bool {
        guard let db = try? HealthConnectDatabase(file: path, errorPath: path, member: nil),
              (try? db.tableNames().contains("meta")) == true else { return false }
        var marked = false
        try? db.query("SELECT count(*) AS n FROM meta WHERE key = 'application' AND value = 'rhr'") { row throws(InputError) in
            marked = (row.int64("n") ?? 0) > 0
        }
        return marked
    }
}
