/// The store's tables and their migrations. `PRAGMA user_version` holds the schema version, which is the
/// number of migrations applied: a new migration is appended to the list, and the version follows.
enum StoreSchema {
    static var version: Int64 { Int64(migrations.count) }

    /// Each step moves the schema from its index to the next version; a step, once released, never changes.
    static let migrations: [String] = [
        // 0 → 1
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        INSERT INTO meta(key, value) VALUES ('application', 'rhr'), ('revision', '0');

        CREATE TABLE writer(
            id INTEGER PRIMARY KEY,
            store TEXT NOT NULL,
            name TEXT NOT NULL,
            app_name TEXT,
            bundle_identifier TEXT,
            product_type TEXT,
            is_watch INTEGER NOT NULL DEFAULT 0,
            UNIQUE(store, name)
        );

        CREATE TABLE stream(
            id INTEGER PRIMARY KEY,
            store TEXT NOT NULL,
            name TEXT NOT NULL,
            cursor TEXT,
            as_of REAL,
            as_of_offset INTEGER,
            as_of_day INTEGER,
            origin TEXT NOT NULL DEFAULT '',
            permissions TEXT,
            revision INTEGER NOT NULL DEFAULT 0,
            UNIQUE(store, name)
        );

        -- Every cursor a stream's applied batches moved to, since its last full resync: a batch that moves
        -- to one of them again was applied already (a file of batches imported twice, a bridge resending).
        CREATE TABLE stream_cursor(
            stream_id INTEGER NOT NULL REFERENCES stream(id),
            cursor TEXT NOT NULL,
            PRIMARY KEY(stream_id, cursor)
        ) WITHOUT ROWID;

        -- One row per resting sample, by its identity across roads (docs/design.md section 4).
        CREATE TABLE sample(
            id INTEGER PRIMARY KEY,
            store TEXT NOT NULL,
            identity TEXT NOT NULL,
            uuid TEXT,
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            stream_id INTEGER NOT NULL REFERENCES stream(id),
            day INTEGER NOT NULL,
            offset_assumed INTEGER NOT NULL,
            start REAL NOT NULL,
            "end" REAL NOT NULL,
            offset_seconds INTEGER,
            time_zone TEXT,
            value REAL,
            unit TEXT NOT NULL,
            in_range INTEGER NOT NULL,
            recording_method INTEGER,
            created REAL,
            last_modified REAL,
            client_record_id TEXT,
            client_record_version INTEGER,
            device_name TEXT,
            device_manufacturer TEXT,
            device_model TEXT,
            device_hardware TEXT,
            device_software TEXT,
            device_type INTEGER,
            UNIQUE(store, identity)
        );
        CREATE INDEX sample_by_day ON sample(day);
        CREATE INDEX sample_by_uuid ON sample(store, uuid) WHERE uuid IS NOT NULL;

        -- Which streams delivered a sample: a snapshot only removes what its own stream said.
        CREATE TABLE sample_stream(
            sample_id INTEGER NOT NULL REFERENCES sample(id) ON DELETE CASCADE,
            stream_id INTEGER NOT NULL REFERENCES stream(id),
            PRIMARY KEY(sample_id, stream_id)
        ) WITHOUT ROWID;
        CREATE INDEX sample_stream_by_stream ON sample_stream(stream_id);

        -- Every deleted or replaced value, with its reason (R4).
        CREATE TABLE revision(
            id INTEGER PRIMARY KEY,
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            day INTEGER NOT NULL,
            identity TEXT NOT NULL,
            old_value REAL,
            unit TEXT NOT NULL,
            was_provisional INTEGER NOT NULL,
            reason TEXT NOT NULL,
            replaced_by_bpm REAL,
            at REAL NOT NULL,
            at_offset INTEGER NOT NULL,
            origin TEXT NOT NULL,
            store_revision INTEGER NOT NULL
        );
        CREATE INDEX revision_by_day ON revision(day);

        -- Heart-rate samples summarised per stream, writer, day and record (R8, R9).
        CREATE TABLE heart_rate(
            stream_id INTEGER NOT NULL REFERENCES stream(id),
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            day INTEGER NOT NULL,
            record_key TEXT NOT NULL,
            not_set INTEGER NOT NULL,
            sedentary INTEGER NOT NULL,
            active INTEGER NOT NULL,
            sedentary_min REAL,
            sedentary_histogram TEXT NOT NULL,
            PRIMARY KEY(stream_id, writer_id, day, record_key)
        ) WITHOUT ROWID;
        CREATE INDEX heart_rate_by_day ON heart_rate(day);
        CREATE INDEX heart_rate_by_record ON heart_rate(record_key) WHERE record_key <> '';
        """,
    ]
}
