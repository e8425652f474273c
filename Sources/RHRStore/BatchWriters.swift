import RHRCore

extension BatchApplication {
    mutating func writerID(_ writer: Writer, isWatch: Bool) throws(StoreError) -> Int64 {
        let details = WriterDetails(writer)
        if let id = writerIDs[writer.key], details.adds(nothingTo: writerDetails[writer.key]) {
            if isWatch && !watchWriterIDs.contains(id) {
                try setWatch(id)
                try noteWriter(id, writer, isWatch: true)
            }
            return id
        }
        writerDetails[writer.key] = details.merged(over: writerDetails[writer.key])
        let detail = BatchApplication.freshestDetail
        try db.statement("""
            INSERT INTO writer(store, name, app_name, bundle_identifier, product_type, is_watch,
                               app_name_as_of, bundle_identifier_as_of, product_type_as_of, name_bytes)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN ?3 IS NOT NULL THEN ?7 END, CASE WHEN ?4 IS NOT NULL THEN ?7 END,
                    CASE WHEN ?5 IS NOT NULL THEN ?7 END, ?8)
            ON CONFLICT(store, name) DO UPDATE SET
                \(detail("app_name")), \(detail("bundle_identifier")), \(detail("product_type")),
                is_watch = max(is_watch, excluded.is_watch),
                -- Names alike up to the cut are one writer: the longest length seen, whatever the order.
                name_bytes = max(coalesce(name_bytes, 0), coalesce(excluded.name_bytes, 0))
            """)
            .bind(.text(writer.store.rawValue), .text(writer.name), .string(writer.appName),
                  .string(writer.bundleIdentifier), .string(writer.productType), .bool(isWatch), .real(asOf),
                  .int64(writer.nameBytes.map(Int64.init))).run()
        let select = try db.statement("SELECT id, is_watch FROM writer WHERE store = ? AND name = ?")
        select.bind(.text(writer.store.rawValue), .text(writer.name))
        guard try select.step() else { throw db.error("writer \(writer.name) vanished") }
        let id = select.int(try select.column("id"))
        writerIDs[writer.key] = id
        if select.int(try select.column("is_watch")) != 0 { watchWriterIDs.insert(id) }
        select.reset()
        try noteWriter(id, writer, isWatch: isWatch)
        return id
    }

    /// Each detail is the freshest road's that gave one (ties: the smaller text), so import order cannot change which
    /// app name or product type a writer shows: the `ON CONFLICT` assignment of `column` and its `_as_of`.
    static func freshestDetail(_ column: String) -> String {
        """
        \(column) = CASE WHEN excluded.\(column) IS NOT NULL AND (\(column) IS NULL
                OR excluded.\(column)_as_of > \(column)_as_of
                OR (excluded.\(column)_as_of = \(column)_as_of AND excluded.\(column) < \(column)))
            THEN excluded.\(column) ELSE \(column) END,
        \(column)_as_of = CASE WHEN excluded.\(column) IS NOT NULL AND (\(column) IS NULL
                OR excluded.\(column)_as_of > \(column)_as_of)
            THEN excluded.\(column)_as_of ELSE \(column)_as_of END
        """
    }

    /// What a batch may say about a writer beyond its name.
    struct WriterDetails {
        var appName: String?
        var bundleIdentifier: String?
        var productType: String?
        var nameBytes: Int?

        init(_ writer: Writer) {
            appName = writer.appName
            bundleIdentifier = writer.bundleIdentifier
            productType = writer.productType
            nameBytes = writer.nameBytes
        }

        /// True when every detail given is already known.
        func adds(nothingTo known: WriterDetails?) -> Bool {
            guard let known else { return false }
            return (appName == nil || appName == known.appName)
                && (bundleIdentifier == nil || bundleIdentifier == known.bundleIdentifier)
                && (productType == nil || productType == known.productType)
                && (nameBytes ?? 0) <= (known.nameBytes ?? 0)
        }

        func merged(over known: WriterDetails?) -> WriterDetails {
            var merged = self
            merged.appName = appName ?? known?.appName
            merged.bundleIdentifier = bundleIdentifier ?? known?.bundleIdentifier
            merged.productType = productType ?? known?.productType
            let longest = max(nameBytes ?? 0, known?.nameBytes ?? 0)
            merged.nameBytes = longest > 0 ? longest : nil
            return merged
        }
    }

    mutating func setWatch(_ id: Int64) throws(StoreError) {
        try db.statement("UPDATE writer SET is_watch = 1 WHERE id = ?").bind(.integer(id)).run()
        watchWriterIDs.insert(id)
    }

    /// R3: writers the reader saw on watch devices, even when their resting samples say nothing of it.
    mutating func markWatchWriters() throws(StoreError) {
        guard batch.store == .healthKit else { return }
        for name in batch.watchWriters.sorted() {
            _ = try writerID(Writer(store: .healthKit, name: name), isWatch: true)
        }
    }

    func isWatch(_ sample: RestingSample) -> Bool {
        batch.store == .healthKit && (batch.watchWriters.contains(sample.writer.name)
            || ProvisionalRule.isAppleWatch(sourceName: sample.writer.name, deviceModel: sample.device?.model,
                                            productType: sample.writer.productType,
                                            bundleIdentifier: sample.writer.bundleIdentifier))
    }
}
