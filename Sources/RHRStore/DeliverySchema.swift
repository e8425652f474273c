/// What the store remembers of each delivery, so that any can be taken back (`rhr imports forget`, docs/design.md
/// section 5): which roads it brought or wrote into and what it did there, what it took from other roads, the
/// deletions it brought, its passed-over records and its own revisions. A migration of its own.
extension StoreSchema {
    /// 7 → 8.
    ///
    /// A delivery is one file an import read (the snapshots of its exports: usually one road, two for a zip of an Apple
    /// and a Health Connect export) or one live road (a stream's batches, however many and from wherever: its cursor
    /// chain cannot be cut). `delivery_road` links it to its roads (`layer`), with its counts per road, so per store
    /// (R1); two files of one instant share a road (R12).
    ///
    /// What a delivery takes from other roads cannot be worked out again once it is gone, so it is kept aside:
    /// `displaced_sample` and `displaced_heart_rate` hold, by the delivery that displaced them (`by_delivery`), the
    /// older snapshots' copies a newer one held with the same value, the older snapshots' heart rate a newer one
    /// covered, an older export's copies and heart rate that a newer one kept from being stored, and the heart rate a
    /// deletion took from other roads. Only the newest such word is kept: a newer export that displaces the same again
    /// drops the older entry (it would be displaced anew), so weekly exports keep one generation aside.
    /// `tombstone_seen` keeps each delivery's deletions (`tombstone` is their latest), `delivery_writer` what each said
    /// of a writer (R2's details, the watch mark of R3, a cut name's length: `writer` holds the freshest),
    /// `passed_over_delivery` which deliveries brought each passed-over record (R14), `revision.delivery_id` whose own
    /// history each entry is.
    ///
    /// A store from before knows its roads but not who brought them: each road becomes a delivery of its own
    /// (`known` 0, counts not kept); its deletions belong to none (0), its own revisions and passed-over records to
    /// its road where only one road can have written them.
    static let deliveries = """
        -- The id of a forgotten delivery is never given again: `meta` keeps the last given (`last_delivery`).
        CREATE TABLE delivery(
            id INTEGER PRIMARY KEY,
            feed INTEGER NOT NULL,
            label TEXT NOT NULL,
            sources TEXT NOT NULL DEFAULT '',
            first_received REAL,
            received_offset INTEGER NOT NULL DEFAULT 0,
            known INTEGER NOT NULL DEFAULT 1
        );
        CREATE TABLE delivery_road(
            delivery_id INTEGER NOT NULL,
            layer_id INTEGER NOT NULL,
            batches INTEGER NOT NULL DEFAULT 0,
            added INTEGER NOT NULL DEFAULT 0,
            replaced INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0,
            unchanged INTEGER NOT NULL DEFAULT 0,
            out_of_range INTEGER NOT NULL DEFAULT 0,
            heart_rate INTEGER NOT NULL DEFAULT 0,
            passed_over INTEGER NOT NULL DEFAULT 0,
            changed INTEGER NOT NULL DEFAULT 0,
            app_priority TEXT,
            last_received REAL,
            PRIMARY KEY(layer_id, delivery_id)
        ) WITHOUT ROWID;
        CREATE INDEX delivery_road_by_delivery ON delivery_road(delivery_id);

        CREATE TABLE displaced_sample(
            id INTEGER PRIMARY KEY,
            by_delivery INTEGER NOT NULL,
            layer_id INTEGER NOT NULL,
            store TEXT NOT NULL,
            as_of REAL NOT NULL,
            first_as_of REAL,
            identity TEXT NOT NULL,
            uuid TEXT,
            writer_id INTEGER NOT NULL,
            \(sampleFields)
            UNIQUE(store, identity, layer_id, by_delivery)
        );
        CREATE INDEX displaced_sample_by_delivery ON displaced_sample(by_delivery);
        CREATE INDEX displaced_sample_by_layer ON displaced_sample(layer_id);

        CREATE TABLE displaced_heart_rate(
            by_delivery INTEGER NOT NULL,
            layer_id INTEGER NOT NULL,
            writer_id INTEGER NOT NULL,
            \(heartRateFields)
            PRIMARY KEY(layer_id, writer_id, day, record_key, by_delivery)
        ) WITHOUT ROWID;
        CREATE INDEX displaced_heart_rate_by_delivery ON displaced_heart_rate(by_delivery);

        CREATE TABLE tombstone_seen(
            store TEXT NOT NULL,
            key TEXT NOT NULL,
            delivery_id INTEGER NOT NULL,
            at REAL NOT NULL,
            at_offset INTEGER NOT NULL,
            origin TEXT NOT NULL,
            PRIMARY KEY(store, key, delivery_id)
        ) WITHOUT ROWID;
        CREATE INDEX tombstone_seen_by_delivery ON tombstone_seen(delivery_id);

        CREATE TABLE delivery_writer(
            delivery_id INTEGER NOT NULL,
            writer_id INTEGER NOT NULL,
            app_name TEXT,
            app_name_as_of REAL,
            bundle_identifier TEXT,
            bundle_identifier_as_of REAL,
            product_type TEXT,
            product_type_as_of REAL,
            is_watch INTEGER NOT NULL DEFAULT 0,
            name_bytes INTEGER,
            PRIMARY KEY(writer_id, delivery_id)
        ) WITHOUT ROWID;
        CREATE INDEX delivery_writer_by_delivery ON delivery_writer(delivery_id);

        CREATE TABLE passed_over_delivery(
            passed_over_id INTEGER NOT NULL,
            delivery_id INTEGER NOT NULL,
            PRIMARY KEY(passed_over_id, delivery_id)
        ) WITHOUT ROWID;
        CREATE INDEX passed_over_delivery_by_delivery ON passed_over_delivery(delivery_id);

        ALTER TABLE revision ADD COLUMN delivery_id INTEGER;
        CREATE INDEX revision_by_delivery ON revision(delivery_id) WHERE delivery_id IS NOT NULL;

        -- A store from before: each road a delivery of its own, numbered as its road.
        INSERT INTO delivery(id, feed, label, known) SELECT id, snapshot = 0, '', 0 FROM layer;
        INSERT INTO delivery_road(delivery_id, layer_id) SELECT id, id FROM layer;
        INSERT INTO tombstone_seen(store, key, delivery_id, at, at_offset, origin)
        SELECT store, key, 0, at, at_offset, origin FROM tombstone;
        UPDATE revision SET delivery_id = (
            SELECT min(l.id) FROM layer l JOIN stream st ON st.id = l.stream_id
            WHERE l.snapshot = 0 AND (CASE WHEN l.origin = '' THEN st.name ELSE l.origin END) = revision.origin
            HAVING count(*) = 1);
        INSERT INTO passed_over_delivery(passed_over_id, delivery_id)
        SELECT p.id, min(l.id) FROM passed_over p
        JOIN stream st ON st.store = p.store AND st.name = p.stream JOIN layer l ON l.stream_id = st.id
        GROUP BY p.id HAVING count(*) = 1;
        """
}
