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
}
