import RHRCore

/// Health Connect's own app priority for vitals, kept on its stream (docs/design.md section 9; `stream.app_priority`,
/// package names one a line): the newest export's that had one, whatever order the exports were imported in.
extension HealthDatabase {
    /// Keeps `batch`'s priority unless the stream holds one from a newer export; a batch without one changes nothing.
    func keepAppPriority(_ batch: SyncBatch, streamID: Int64) throws(StoreError) {
        guard let packages = batch.appPriority else { return }
        try db.statement("""
            UPDATE stream SET app_priority = ?1, app_priority_as_of = ?2
            WHERE id = ?3 AND (app_priority_as_of IS NULL OR app_priority_as_of <= ?2)
            """)
            .bind(.text(packages.joined(separator: "\n")), .real(batch.asOf.epochSeconds), .integer(streamID)).run()
    }
}

extension AppPriority {
    /// As the stream's `app_priority` column holds it; nil for NULL or no package.
    init?(column: String?) {
        guard let column, !column.isEmpty else { return nil }
        self.init(packages: column.split(separator: "\n").map(String.init))
    }
}
