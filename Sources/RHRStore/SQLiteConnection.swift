import CSQLite
import Foundation

/// A thin owner of one sqlite3 connection: statements are prepared once and cached by their text.
final class SQLiteConnection {
    let path: String
    private let db: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    /// The file, while this connection is open on it (`OpenStoreFiles`); nil in memory.
    private let file: OpenStoreFiles.FileID?

    /// How a connection opens its file.
    enum Mode {
        /// Reads and writes; the file must exist (`HealthDatabase` creates it 0600 first), but ":memory:".
        case readWrite
        /// Reads only; in WAL mode SQLite may still create the `-shm` index beside the file.
        case readOnly
        /// Reads only, with SQLite told the file never changes: no lock, no `-shm`, no journal read or made.
        case immutable
    }

    init(path: String, mode: Mode = .readWrite) throws(StoreError) {
        var handle: OpaquePointer?
        let status: Int32
        switch mode {
        case .readWrite:
            let create = path == ":memory:" ? SQLITE_OPEN_CREATE : 0
            status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | create | SQLITE_OPEN_NOMUTEX, nil)
        case .readOnly:
            status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        case .immutable:
            // A `file:` URI (its path percent-encoded by Foundation) is the only way to say immutable.
            let uri = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
            status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard status == SQLITE_OK, let handle else {
            let failure = handle.map { SQLiteConnection.failure(of: $0, path: path) }
                ?? StoreFailure.error(path, code: status, systemError: 0, said: String(cString: sqlite3_errstr(status)))
            sqlite3_close(handle)
            throw failure
        }
        self.path = path
        self.db = handle
        // Before the first statement, which is when SQLite takes its first lock.
        self.file = path == ":memory:" ? nil : OpenStoreFiles.opened(path)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(db)
        if let file { OpenStoreFiles.closed(file) }
    }

    /// The last failure's primary result code (`SQLITE_CANTOPEN`).
    var lastErrorKind: Int32 { sqlite3_extended_errcode(db) & 0xFF }

    /// What the system said of the last failure (`Permission denied`), when it said anything.
    var lastSystemError: String? {
        let code = sqlite3_system_errno(db)
        return code == 0 ? nil : String(cString: strerror(code))
    }

    /// Whether the last failure was another connection holding a lock past the busy timeout (or one SQLite
    /// does not wait for, such as two connections both wanting to turn a read into a write). The extended codes
    /// (`SQLITE_BUSY_RECOVERY`, …) are busy too.
    var lastErrorWasBusy: Bool {
        lastErrorKind == SQLITE_BUSY || lastErrorKind == SQLITE_LOCKED
    }

    /// Whether SQLite opened the file for reading only (a write-protected file opened read-write is).
    var isReadOnly: Bool { sqlite3_db_readonly(db, "main") == 1 }

    /// The integer in `column` of the first row of `sql`; 0 when there is no row.
    func integer(_ sql: String, column: String) throws(StoreError) -> Int64 {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int(try statement.column(column)) : 0
    }

    /// The last failure in rhr's words by its kind (`StoreFailure`), SQLite's own in the detail.
    func failure() -> StoreError { SQLiteConnection.failure(of: db, path: path) }

    /// A store that is not as rhr wrote it (a row its own tables promise is missing), in `what`'s words.
    func error(_ what: String) -> StoreError {
        StoreError(.database, "\(path): \(what)", detail: "SQLite: \(String(cString: sqlite3_errmsg(db)))")
    }

    private static func failure(of db: OpaquePointer, path: String) -> StoreError {
        StoreFailure.error(path, code: sqlite3_extended_errcode(db), systemError: sqlite3_system_errno(db),
                           said: String(cString: sqlite3_errmsg(db)))
    }

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(StoreError) {
        if sqlite3_exec(db, sql, nil, nil, nil) != SQLITE_OK { throw failure() }
    }

    /// A prepared statement, reset and with its bindings cleared.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil) == SQLITE_OK, let stmt else {
            throw failure()
        }
        let statement = SQLiteStatement(stmt, connection: self)
        cache[sql] = statement
        return statement
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; any error rolls everything back.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try transaction(failing: body)
        } catch let error as StoreError {
            throw error
        } catch {
            preconditionFailure("a body that throws only StoreError threw \(error)")
        }
    }

    /// `transaction` for a body that may also fail otherwise (a file read while its batches are applied, whose error
    /// is the reader's): any error rolls everything back and is thrown as it was.
    func transaction<T>(failing body: () throws -> T) throws -> T {
        assertNothingOpen("before a write")
        defer { assertNothingOpen("after a write") }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            resetAll()
            try execute("COMMIT")
            return result
        } catch {
            resetAll()
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs reads inside one read transaction, so they see one consistent state of the store, and
    /// leaves no statement pending (a pending statement would pin an old snapshot for later reads). The read
    /// starts with nothing open, so its snapshot is the newest commit; and it leaves nothing open.
    func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        assertNothingOpen("before a read")
        try execute("BEGIN DEFERRED")
        defer {
            resetAll()
            // A COMMIT that failed would leave the transaction, and its snapshot, open for the next read.
            if (try? execute("COMMIT")) == nil { try? execute("ROLLBACK") }
            assertNothingOpen("after a read")
        }
        return try body()
    }

    /// Debug builds: no transaction is open on this connection and no statement of it is between its first step
    /// and its reset. Either would hold a snapshot of the store past the read that needed it.
    func assertNothingOpen(_ when: @autoclosure () -> String) {
        assert(sqlite3_get_autocommit(db) != 0, "\(path): a transaction is open \(when())")
        assert(busyStatement() == nil, "\(path): a statement is still stepping \(when()): \(busyStatement() ?? "")")
    }

    /// The SQL of a statement of this connection that has stepped and not been reset, if there is one.
    func busyStatement() -> String? {
        var next = sqlite3_next_stmt(db, nil)
        while let stmt = next {
            if sqlite3_stmt_busy(stmt) != 0 { return sqlite3_sql(stmt).map { String(cString: $0) } ?? "" }
            next = sqlite3_next_stmt(db, stmt)
        }
        return nil
    }

    /// Resets every cached statement: none keeps a read open.
    func resetAll() {
        for statement in cache.values { statement.reset() }
    }
}

/// One prepared statement. Bind by 1-based index, step, read columns by name: `column(_:)` finds a result
/// column's position once (statements are prepared once and cached), and the row accessors take the found
/// column, so no query's reader depends on the order of its SELECT list.
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private unowned let connection: SQLiteConnection
    /// Result column positions by name (the `AS` alias, else the column's name), made on first use.
    private var positions: [String: Int32]?

    init(_ stmt: OpaquePointer, connection: SQLiteConnection) {
        self.stmt = stmt
        self.connection = connection
    }

    deinit { sqlite3_finalize(stmt) }

    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    @discardableResult
    func bind(_ values: SQLValue...) -> SQLiteStatement {
        bind(values)
    }

    @discardableResult
    func bind(_ values: [SQLValue]) -> SQLiteStatement {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .null: sqlite3_bind_null(stmt, index)
            case .integer(let v): sqlite3_bind_int64(stmt, index, v)
            case .real(let v): sqlite3_bind_double(stmt, index, v)
            case .text(let v):
                // With its byte length: a C string's end (-1) would cut the text at its first NUL. (`utf8CString`
                // keeps every NUL and, unlike an empty buffer, always has an address: a nil one would bind NULL.)
                let bytes = v.utf8CString
                bytes.withUnsafeBufferPointer { buffer in
                    _ = sqlite3_bind_text64(stmt, index, buffer.baseAddress, sqlite3_uint64(buffer.count - 1),
                                            rhr_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        }
        return self
    }

    /// Advances to the next row; false when done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(stmt) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure()
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(StoreError) {
        while try step() {}
    }

    /// The result column called `name`. A name the statement does not return is a mistake in rhr's own SQL.
    func column(_ name: String) throws(StoreError) -> SQLColumn {
        if positions == nil {
            var found: [String: Int32] = [:]
            for i in 0..<sqlite3_column_count(stmt) {
                if let name = sqlite3_column_name(stmt, i) { found[String(cString: name)] = i }
            }
            positions = found
        }
        guard let index = positions?[name] else {
            let sql = sqlite3_sql(stmt).map { String(cString: $0) } ?? ""
            throw StoreError(.database, "\(connection.path): no column \(name) in \"\(sql.prefix(60))…\"")
        }
        return SQLColumn(index: index)
    }

    func isNull(_ column: SQLColumn) -> Bool { sqlite3_column_type(stmt, column.index) == SQLITE_NULL }
    func int(_ column: SQLColumn) -> Int64 { sqlite3_column_int64(stmt, column.index) }
    func double(_ column: SQLColumn) -> Double { sqlite3_column_double(stmt, column.index) }
    /// The column's text, whole: read by its byte length, so a NUL inside it is kept.
    func text(_ column: SQLColumn) -> String {
        String(decoding: bytes(column), as: UTF8.self)
    }
    /// The column's text as bytes, valid until the next step or reset.
    func bytes(_ column: SQLColumn) -> UnsafeRawBufferPointer {
        guard let p = sqlite3_column_text(stmt, column.index) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, column.index)))
    }
    func optionalInt(_ column: SQLColumn) -> Int64? { isNull(column) ? nil : int(column) }
    func optionalDouble(_ column: SQLColumn) -> Double? { isNull(column) ? nil : double(column) }
    func optionalText(_ column: SQLColumn) -> String? { isNull(column) ? nil : text(column) }
}

/// A result column of one statement, found by name with `SQLiteStatement.column(_:)`.
struct SQLColumn {
    fileprivate let index: Int32
}

/// A value to bind.
enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    static func int64(_ v: Int64?) -> SQLValue { v.map { .integer($0) } ?? .null }
    static func double(_ v: Double?) -> SQLValue { v.map { .real($0) } ?? .null }
    static func string(_ v: String?) -> SQLValue { v.map { .text($0) } ?? .null }
    static func bool(_ v: Bool) -> SQLValue { .integer(v ? 1 : 0) }
}
