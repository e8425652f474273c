// Which rhr last brought a store's schema up to date, and the check an opener makes before it does so itself.
import RHRCore

/// A store about to be brought up to date: from the schema it has to the one this rhr writes (docs/design.md section 8,
/// version skew).
public struct StoreMigration: Sendable, Equatable {
    public var path: String
    public var from: Int64
    public var to: Int64
}

/// Asked before a store that holds data is brought up to date; what it throws refuses the migration, and nothing is
/// changed. The commands and the daemon refuse while a daemon of another build serves the store
/// (`ServingDaemons`): that daemon would fail on the new schema, or write what it forbids.
public typealias MigrationCheck = @Sendable (StoreMigration) throws(StoreError) -> Void

/// The rhr, version and build, that last migrated a store (`meta`: `migrated_by_version`, `migrated_by_build`). No
/// schema change: `meta` is a table of keys since version 1.
public struct StoreMigrator: Sendable, Equatable {
    public var version: String
    public var build: String

    /// "rhr 0.1.0 (build c765f90a1b2c)".
    public var description: String { "rhr " + RHRVersion.describe(version: version, build: build) }

    static let versionKey = "migrated_by_version", buildKey = "migrated_by_build"

    /// Noted inside the migration's transaction.
    static func recordThisOne(_ db: SQLiteConnection) throws(StoreError) {
        let insert = try db.statement("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
        for (key, value) in [(versionKey, RHRVersion.current), (buildKey, RHRVersion.build)] {
            insert.reset()
            try insert.bind(.text(key), .text(value)).run()
        }
    }
}

extension HealthDatabase {
    /// Which rhr last brought the store up to date; nil for a store no rhr that records it has migrated.
    public func migratedBy() throws(StoreError) -> StoreMigrator? {
        try db.read { () throws(StoreError) -> StoreMigrator? in
            let select = try db.statement("SELECT key, value FROM meta WHERE key IN (?, ?)")
            select.bind(.text(StoreMigrator.versionKey), .text(StoreMigrator.buildKey))
            var values: [String: String] = [:]
            while try select.step() { values[select.text(try select.column("key"))] = select.text(try select.column("value")) }
            guard let version = values[StoreMigrator.versionKey], let build = values[StoreMigrator.buildKey] else { return nil }
            return StoreMigrator(version: version, build: build)
        }
    }
}
