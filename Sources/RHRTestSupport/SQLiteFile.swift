import CSQLite

/// SQLite itself, outside rhr: a file made or changed behind rhr's back (another program's database, a store of a
/// newer schema), to see what rhr makes of it.
public enum SQLiteFile {
    /// Runs `sql` (one statement or several) on the database at `path`, creating it when there is none.
    public static func execute(_ sql: String, at path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open(path, &handle) == SQLITE_OK else {
            throw TestFailure("\(path): SQLite cannot open it: \(String(cString: sqlite3_errmsg(handle)))")
        }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw TestFailure("\(path): \(sql): \(message.map { String(cString: $0) } ?? "failed")")
        }
    }

    /// The rows `sql` gives on the database at `path`, each column as SQLite's text of it (nil for NULL).
    public static func rows(_ sql: String, at path: String) throws -> [[String?]] {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
              sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestFailure("\(path): \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        var rows: [[String?]] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                rows.append((0..<sqlite3_column_count(statement)).map { i in
                    sqlite3_column_text(statement, i).map { String(cString: $0) }
                })
            case SQLITE_DONE: return rows
            default: throw TestFailure("\(path): \(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
        }
    }
}
