/// The store's tables and their migrations. `PRAGMA user_version` holds the schema version, which is the
/// number of migrations applied: a new migration is appended to the list, and the version follows.
enum StoreSchema {
    static var version: Int64 { Int64(migrations.count) }

    /// A resting sample's delivered fields and its day, as the `sample` table of version 1 and its successor of
    /// version 2 both define them (and `displaced_sample` of version 8). Released: like the steps that use it, it
    /// never changes.
    static let sampleFields = """
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
        """

    /// A heart-rate summary's columns after its road and writer, as `heart_rate` of version 2 and `displaced_heart_rate`
    /// of version 8 define them. Released: it never changes.
    static let heartRateFields = """
        day INTEGER NOT NULL,
                    record_key TEXT NOT NULL,
                    as_of REAL NOT NULL,
                    not_set INTEGER NOT NULL,
                    sedentary INTEGER NOT NULL,
                    active INTEGER NOT NULL,
                    sedentary_min REAL,
                    sedentary_histogram TEXT NOT NULL,
        """

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
            \(sampleFields)
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
        // 1 → 2: every road keeps what it says (docs/design.md R12). A road is a live stream's running state or one
        // snapshot an export brought (`layer`); each holds its own copy of a sample (`sample.layer_id`), so a value
        // can differ between roads. `current` is 0 where a newer snapshot of the same stream covers the sample or a
        // later deletion (`tombstone`) took it; a copy a newer snapshot of its stream holds with the same value is
        // not kept at all, nor heart rate a newer snapshot covers. Which road decides a writer's day is worked out
        // when reading.
        """
        CREATE TABLE layer(
            id INTEGER PRIMARY KEY,
            stream_id INTEGER NOT NULL REFERENCES stream(id),
            snapshot INTEGER NOT NULL,
            as_of REAL NOT NULL,
            as_of_offset INTEGER NOT NULL,
            from_at REAL,
            to_at REAL,
            from_day INTEGER,
            to_day INTEGER,
            covers_resting INTEGER NOT NULL DEFAULT 1,
            covers_heart_rate INTEGER NOT NULL DEFAULT 1,
            origin TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX layer_by_stream ON layer(stream_id, snapshot, as_of);

        -- Origins without a date: the history writes the date from the time itself, with its year when needed.
        UPDATE stream SET origin = CASE
            WHEN origin LIKE 'export of %' THEN 'Apple Health export'
            WHEN origin LIKE 'Health Connect export of %' THEN 'Health Connect export'
            WHEN origin LIKE 'Health Auto Export of %' THEN 'Health Auto Export'
            ELSE origin END;
        UPDATE revision SET origin = CASE
            WHEN origin LIKE 'export of %' THEN 'Apple Health export'
            WHEN origin LIKE 'Health Connect export of %' THEN 'Health Connect export'
            WHEN origin LIKE 'Health Auto Export of %' THEN 'Health Auto Export'
            ELSE origin END;

        -- Version 1 kept one layer per stream: the export roads were snapshots, the others live.
        INSERT INTO layer(id, stream_id, snapshot, as_of, as_of_offset, from_at, to_at, from_day, to_day, origin)
        SELECT st.id, st.id, st.name IN ('apple-health-export', 'health-connect-export', 'health-auto-export'),
               coalesce(st.as_of, 0), coalesce(st.as_of_offset, 0),
               CASE WHEN st.name = 'health-auto-export' THEN
                   (SELECT min(s.start) FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id WHERE ss.stream_id = st.id) END,
               CASE st.name WHEN 'apple-health-export' THEN st.as_of WHEN 'health-auto-export' THEN
                   (SELECT max(s."end") FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id WHERE ss.stream_id = st.id) END,
               CASE WHEN st.name = 'health-auto-export' THEN
                   (SELECT min(d) FROM (SELECT s.day AS d FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id
                                        WHERE ss.stream_id = st.id
                                        UNION ALL SELECT day FROM heart_rate WHERE stream_id = st.id)) END,
               CASE st.name WHEN 'apple-health-export' THEN st.as_of_day WHEN 'health-auto-export' THEN
                   (SELECT max(d) FROM (SELECT s.day AS d FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id
                                        WHERE ss.stream_id = st.id
                                        UNION ALL SELECT day FROM heart_rate WHERE stream_id = st.id)) END,
               st.origin
        FROM stream st;

        CREATE TABLE road_sample(
            id INTEGER PRIMARY KEY,
            layer_id INTEGER NOT NULL REFERENCES layer(id),
            store TEXT NOT NULL,
            -- When the road last delivered it: a deletion seen later takes it (R4), one seen earlier does not.
            as_of REAL NOT NULL,
            current INTEGER NOT NULL DEFAULT 1,
            identity TEXT NOT NULL,
            uuid TEXT,
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            \(sampleFields)
            -- One copy per road; also the lookup of every road's copy of an identity.
            UNIQUE(store, identity, layer_id)
        );
        INSERT INTO road_sample(layer_id, store, as_of, current, identity, uuid, writer_id, day, offset_assumed, start,
                                "end", offset_seconds, time_zone, value, unit, in_range, recording_method, created,
                                last_modified, client_record_id, client_record_version, device_name,
                                device_manufacturer, device_model, device_hardware, device_software, device_type)
        SELECT l.id, s.store, l.as_of, 1, s.identity, s.uuid, s.writer_id, s.day, s.offset_assumed, s.start, s."end",
               s.offset_seconds, s.time_zone, s.value, s.unit, s.in_range, s.recording_method, s.created,
               s.last_modified, s.client_record_id, s.client_record_version, s.device_name, s.device_manufacturer,
               s.device_model, s.device_hardware, s.device_software, s.device_type
        FROM sample s JOIN sample_stream ss ON ss.sample_id = s.id JOIN layer l ON l.id = ss.stream_id;
        DROP TABLE sample_stream;
        DROP TABLE sample;
        ALTER TABLE road_sample RENAME TO sample;
        CREATE INDEX sample_by_day ON sample(day, writer_id);
        CREATE INDEX sample_by_uuid ON sample(store, uuid) WHERE uuid IS NOT NULL;

        CREATE TABLE road_heart_rate(
            layer_id INTEGER NOT NULL REFERENCES layer(id),
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            \(heartRateFields)
            PRIMARY KEY(layer_id, writer_id, day, record_key)
        ) WITHOUT ROWID;
        INSERT INTO road_heart_rate(layer_id, writer_id, day, record_key, as_of, not_set, sedentary, active,
                                    sedentary_min, sedentary_histogram)
        SELECT h.stream_id, h.writer_id, h.day, h.record_key, l.as_of, h.not_set, h.sedentary, h.active,
               h.sedentary_min, h.sedentary_histogram
        FROM heart_rate h JOIN layer l ON l.id = h.stream_id;
        DROP TABLE heart_rate;
        ALTER TABLE road_heart_rate RENAME TO heart_rate;
        CREATE INDEX heart_rate_by_day ON heart_rate(day, writer_id);
        CREATE INDEX heart_rate_by_record ON heart_rate(record_key) WHERE record_key <> '';

        -- Deletions, by sample UUID, identity or record id, with when they were seen (R4): a road that delivers
        -- the value with an older asOf does not bring it back, whatever the import order.
        CREATE TABLE tombstone(
            store TEXT NOT NULL,
            key TEXT NOT NULL,
            at REAL NOT NULL,
            at_offset INTEGER NOT NULL,
            origin TEXT NOT NULL,
            PRIMARY KEY(store, key)
        ) WITHOUT ROWID;
        INSERT INTO tombstone(store, key, at, at_offset, origin)
        SELECT w.store, r.identity, max(r.at), r.at_offset, r.origin
        FROM revision r JOIN writer w ON w.id = r.writer_id WHERE r.reason = 'deleted'
        GROUP BY w.store, r.identity;

        -- When the old value was read (R3 judges "draft" by it, against the writer as known when reading).
        ALTER TABLE revision ADD COLUMN old_as_of REAL;

        -- Per detail, the asOf of the road that gave it: the freshest road's detail wins, in any import order.
        ALTER TABLE writer ADD COLUMN app_name_as_of REAL;
        ALTER TABLE writer ADD COLUMN bundle_identifier_as_of REAL;
        ALTER TABLE writer ADD COLUMN product_type_as_of REAL;
        """,
        // 2 → 3: a phone feed's road knows each day as of the last request that carried it (docs/design.md R12,
        // section 4b): `by_day` marks it, and its copies' `as_of` date what it says of each day. The index finds a
        // road's copies by day: a request replacing its days, a feed's newest day (`rhr status`, `GET /v1/status`).
        """
        ALTER TABLE layer ADD COLUMN by_day INTEGER NOT NULL DEFAULT 0;
        UPDATE layer SET by_day = 1
        WHERE snapshot = 0 AND origin IN ('Health Auto Export over HTTP', 'HC Webhook over HTTP');
        CREATE INDEX sample_by_layer ON sample(layer_id, day);
        """,
        // 3 → 4: a writer's name is kept cut at the gate's bound (`TextGate`, docs/design.md section 1); `name_bytes`
        // is the length it had, so the detail pane can say how much was cut. NULL: the name is whole.
        """
        ALTER TABLE writer ADD COLUMN name_bytes INTEGER;
        """,
        // 4 → 5: writers keep their numbers (WriterNumbers.swift).
        writerNumbers,
        // 5 → 6: what a reader passed over (R14), kept raw with where it was and why, once per input and place (the
        // same file imported again keeps one row of each); and the raw spellings of a writer's name that
        // `WriterNameRule` folded into it (R2).
        """
        CREATE TABLE passed_over(
            id INTEGER PRIMARY KEY,
            store TEXT NOT NULL,
            stream TEXT NOT NULL,
            source TEXT NOT NULL,
            place TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            raw TEXT NOT NULL,
            seen REAL NOT NULL,
            seen_offset INTEGER NOT NULL,
            UNIQUE(store, stream, source, place, reason)
        );
        CREATE TABLE writer_spelling(
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            spelling TEXT NOT NULL,
            PRIMARY KEY(writer_id, spelling)
        ) WITHOUT ROWID;
        """,
        // 6 → 7 (docs/design.md section 9): when a road first received each resting copy (`as_of` is when it last
        // did), for how late a writer's values come; NULL for the copies stored before, whose first delivery is not
        // known. And Health Connect's own app priority for vitals as the newest export gave it (package names, one a
        // line, in order), with the `asOf` of that export, so an older export imported later does not undo it. The
        // writer of Health Auto Export values that name none is not marked a watch any more (its labels say it is not
        // named; R3 still takes it for a possible one by its name, `ProvisionalRule.mayBeWatch`).
        """
        ALTER TABLE sample ADD COLUMN first_as_of REAL;
        ALTER TABLE stream ADD COLUMN app_priority TEXT;
        ALTER TABLE stream ADD COLUMN app_priority_as_of REAL;
        UPDATE writer SET is_watch = 0 WHERE store = 'healthkit' AND name = 'Health Auto Export';
        """,
        // 7 → 8: every delivery the store remembers, and what it took from others (DeliverySchema.swift).
        deliveries,
        // 8 → 9: when deliveries were made and read (DeliveryTimes.swift).
        deliveryTimes,
    ]
}
