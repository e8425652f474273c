import CSQLite
import Foundation

/// A Health Connect export database. The user's own file is opened read-only and SQLite is told it is immutable,
/// so it never writes to it, never creates a journal or `-shm` beside it, and never takes a lock: the file is
/// left exactly as it was. A private copy (`HealthConnectScratchCopy`) is opened as any database, so SQLite
/// applies the log copied beside it.
final class HealthConnectDatabase {
    /// The file the user named, for errors.
    let errorPath: String
    /// "health_connect_export.db: " when the database came out of a zip, so errors name the member too.
    let errorPrefix: String
    private let handle: OpaquePointer

    /// `privateCopy`: the file is rhr's own copy, which SQLite may write to while it applies a log.
    init(file: String, errorPath: String, member: String?, privateCopy: Bool = false) throws(InputError) {
        self.errorPath = errorPath
        self.errorPrefix = member.map { "\($0): " } ?? ""
        var db: OpaquePointer?
        let status = privateCopy
            ? sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE, nil)
            : sqlite3_open_v2("file:" + HealthConnectDatabase.uriEscaped(file) + "?immutable=1", &db,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard status == SQLITE_OK, let db else {
            let code = db.map { sqlite3_extended_errcode($0) } ?? status
            sqlite3_close_v2(db)
            throw InputError(path: errorPath, message: errorPrefix + HealthConnectDatabase.words(for: code, opening: true))
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ message: String) -> InputError {
        InputError(path: errorPath, message: errorPrefix + message)
    }

    /// `PRAGMA user_version`: Android's SQLiteOpenHelper keeps the schema version there.
    func userVersion() throws(InputError) -> Int {
        var version = 0
        try query("PRAGMA user_version") { row throws(InputError) in version = Int(row.int64(0) ?? 0) }
        return version
    }

    /// The names of the tables, in no particular order.
    func tableNames() throws(InputError) -> Set<String> {
        var names: Set<String> = []
        try query("SELECT name FROM sqlite_master WHERE type = 'table'") { row throws(InputError) in
            if let name = row.text(0) { names.insert(name) }
        }
        return names
    }

    /// The columns of a table by name (`PRAGMA table_info`), empty when there is no such table.
    func columns(of table: String) throws(InputError) -> Set<String> {
        var names: Set<String> = []
        try query("PRAGMA table_info(\(HealthConnectDatabase.quoted(table)))") { row throws(InputError) in
            if let name = row.text(1) { names.insert(name) }
        }
        return names
    }

    /// Runs a statement and hands each row to `body`.
    func query(_ sql: String, _ body: (Row) throws(InputError) -> Void) throws(InputError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure()
        }
        defer { sqlite3_finalize(statement) }
        var positions: [String: Int32] = [:]
        for i in 0..<sqlite3_column_count(statement) {
            if let name = sqlite3_column_name(statement, i) { positions[String(cString: name)] = i }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure() }
            try body(Row(statement: statement, positions: positions))
        }
    }

    private func failure() -> InputError {
        error(HealthConnectDatabase.words(for: sqlite3_extended_errcode(handle), opening: false))
    }

    /// What a failed open or read of the user's database means, in rhr's words: SQLite's own text ("database disk
    /// image is malformed") tells a person nothing they can act on.
    static func words(for code: Int32, opening: Bool) -> String {
        switch code & 0xFF {
        case SQLITE_NOTADB: return "the file is not an SQLite database, so not a Health Connect export"
        case SQLITE_CORRUPT: return "the database is damaged or cut short (a copy that did not finish?): rhr read nothing from it"
        case SQLITE_CANTOPEN: return "the database cannot be opened: check that the file is there and readable"
        case SQLITE_PERM, SQLITE_AUTH, SQLITE_READONLY: return "rhr is not allowed to read the database"
        case SQLITE_IOERR: return "the disk would not give back the database's contents (a read error)"
        case SQLITE_FULL: return "the disk is full: rhr's private copy of the database has no room"
        case SQLITE_NOMEM: return "there is not enough memory to read the database"
        case SQLITE_BUSY, SQLITE_LOCKED: return "another program holds the database locked; try again when it is done"
        default: return opening ? "the database cannot be opened (SQLite result \(code))" : "the database cannot be read (SQLite result \(code))"
        }
    }

    /// One result row; columns by their name (the `AS` alias), or by their index in the statement's own select list.
    struct Row {
        let statement: OpaquePointer
        let positions: [String: Int32]

        /// The column `name` as an integer; nil when it is null (or not a whole number). A name the statement does
        /// not return is a mistake in rhr's own SQL.
        func int64(_ name: String) -> Int64? { int64(position(name)) }

        func text(_ name: String) -> String? { text(position(name)) }

        private func position(_ name: String) -> Int32 {
            guard let position = positions[name] else { preconditionFailure("no column \(name) in the query") }
            return position
        }

        func int64(_ i: Int32) -> Int64? {
            switch sqlite3_column_type(statement, i) {
            case SQLITE_INTEGER: return sqlite3_column_int64(statement, i)
            case SQLITE_FLOAT:
                let d = sqlite3_column_double(statement, i)
                return d.isFinite && d == d.rounded() && abs(d) < 9e18 ? Int64(d) : nil
            case SQLITE_TEXT: return text(i).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            default: return nil
            }
        }

        func text(_ i: Int32) -> String? {
            guard sqlite3_column_type(statement, i) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, i) else {
                return nil
            }
            let count = Int(sqlite3_column_bytes(statement, i))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    /// `"name"` with inner quotes doubled: table and column names always go into SQL this way.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A path made safe for an SQLite `file:` URI: everything but unreserved characters and `/` escaped.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "-._~/".contains(c)) {
                out.append(c)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
