import RHRCore

/// Health Connect's own app priority (docs/design.md section 9): the order a person set for the apps that write a
/// data category, which a real export keeps in `health_data_category_priority_table` — `health_data_category` (an
/// integer, `HealthDataCategory`) and `app_id_priority_order` (row ids of `application_info_table`, joined by commas,
/// first ranked first), as AOSP's `HealthDataCategoryPriorityHelper` writes them. rhr reads the vitals category's,
/// where resting heart rate and heart rate belong, to show beside the writers; it never merges by it (R1).
struct HealthConnectPriority {
    static let table = "health_data_category_priority_table"
    static let skippedWords = "Health Connect app priority entries that name no app"

    /// The vitals category's packages in the user's order, as writer names (`WriterNameRule.canonical`); nil when the
    /// export has no such table (older platforms), a table of another shape, or no vitals row, or the row lists none.
    var packages: [String]?
    /// Entries that are not a row id of an app with a usable package name.
    var skipped = 0
    var skippedCounts: [String: Int] { skipped == 0 ? [:] : [HealthConnectPriority.skippedWords: skipped] }

    static func read(_ db: HealthConnectDatabase) throws(InputError) -> HealthConnectPriority {
        var result = HealthConnectPriority()
        guard try db.tableNames().contains(table),
              try db.columns(of: table).isSuperset(of: ["health_data_category", "app_id_priority_order"]) else {
            return result
        }
        var order: String?
        try db.query("""
            SELECT app_id_priority_order AS apps FROM \(HealthConnectDatabase.quoted(table))
            WHERE health_data_category = \(AppPriority.vitalsCategory) LIMIT 1
            """) { row throws(InputError) in order = row.text("apps") }
        guard let order, !order.isEmpty else { return result }
        var packages: [Int64: String] = [:], devices: Set<Int64> = []
        try db.query("SELECT row_id, package_name FROM \(HealthConnectDatabase.quoted(HealthConnectSchema.applications.name))") {
            row throws(InputError) in
            guard let id = row.int64(0), let package = row.text(1), !package.isEmpty, TextGate.flaw(in: package) == nil else { return }
            if HealthConnectSyntheticPackage.redacted(package) != nil { devices.insert(id) } else { packages[id] = WriterNameRule.canonical(package) }
        }
        var listed: [String] = [], seen = Set<String>()
        for entry in order.split(separator: ",", omittingEmptySubsequences: false) {
            // A device data provider's device (docs/design.md section 2): no app rhr names, left out.
            if let id = Int64(entry), devices.contains(id) { continue }
            guard let id = Int64(entry), let package = packages[id] else {
                result.skipped += 1
                continue
            }
            if seen.insert(package).inserted { listed.append(package) }
        }
        result.packages = listed.isEmpty ? nil : listed
        return result
    }
}
