import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// Health Connect's own app priority (docs/design.md section 9): a real export keeps the user's order of the apps per
/// data category in `health_data_category_priority_table` (`health_data_category`, `app_id_priority_order`: row ids
/// of `application_info_table` joined by commas, as AOSP's HealthDataCategoryPriorityHelper writes them). rhr reads
/// the vitals category's (6: resting heart rate and heart rate) and carries it with the batch.
@Suite("Health Connect app priority")
struct HealthConnectPriorityTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    /// An export with three apps and one Oura record, and the priority table as the platform creates it.
    func export(priorities: [(category: String, order: String)]?) throws -> String {
        let path = dir.file("health_connect_export.db")
        let db = try HealthConnectTestDatabase(path: path)
        let oura = try db.addApp("com.ouraring.oura", name: "Oura")
        try db.addApp("com.fitbit.FitbitMobile", name: "Fitbit")
        try db.addApp("com.withings.wiscale2", name: "Health Mate")
        try db.addResting(uuid: "0123456789abcdef0123456789abcdef", time: 1_773_300_000_000, offset: 3600, bpm: 52, app: oura)
        if let priorities {
            try db.exec("""
                CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY,
                  health_data_category INTEGER UNIQUE, app_id_priority_order TEXT NOT NULL)
                """)
            for p in priorities {
                try db.exec("INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) "
                            + "VALUES (\(p.category), '\(p.order)')")
            }
        }
        db.close()
        return path
    }

    func read(_ path: String) throws -> ImportedFile {
        try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: utc), progress: nil)
    }

    @Test func theVitalsOrderIsReadInTheUsersOrder() throws {
        // Activity (1) has its own order; vitals (6) puts Fitbit first, then Oura.
        let file = try read(try export(priorities: [("1", "1,2,3"), ("6", "2,1")]))
        #expect(file.batches.first?.appPriority == ["com.fitbit.FitbitMobile", "com.ouraring.oura"])
        #expect(file.skipped.isEmpty)
    }

    @Test func anExportWithoutThePriorityTableOrAVitalsRowSaysNothing() throws {
        #expect(try read(try export(priorities: nil)).batches.first?.appPriority == nil)
        #expect(try read(try export(priorities: [("1", "1,2")])).batches.first?.appPriority == nil)
        #expect(try read(try export(priorities: [("6", "")])).batches.first?.appPriority == nil)
    }

    /// An entry that is not an app's row id, or names no app, is left out and counted; the rest keep their order.
    @Test func entriesThatNameNoAppAreLeftOutAndCounted() throws {
        let file = try read(try export(priorities: [("6", "3,x,99,,1,3")]))
        #expect(file.batches.first?.appPriority == ["com.withings.wiscale2", "com.ouraring.oura"])
        #expect(file.skipped == ["Health Connect app priority entries that name no app": 3])
    }

    /// Hostile contents: an order of a million entries, an app named with a control character, a NULL order.
    @Test func aHostileOrderIsReadWholeAndNamesNoBadApp() throws {
        let path = try export(priorities: [("6", Array(repeating: "1", count: 1_000_000).joined(separator: ",") + ",4")])
        let db = try HealthConnectTestDatabase.reopen(path)
        try db.addApp("com.example.\u{1B}[2J", name: "Escape")
        db.close()
        let file = try read(path)
        #expect(file.batches.first?.appPriority == ["com.ouraring.oura"])
        #expect(file.skipped == ["Health Connect app priority entries that name no app": 1])
        let empty = try export(priorities: nil)
        let nulls = try HealthConnectTestDatabase.reopen(empty)
        try nulls.exec("CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY, "
                       + "health_data_category INTEGER UNIQUE, app_id_priority_order TEXT)")
        try nulls.exec("INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES (6, NULL)")
        nulls.close()
        #expect(try read(empty).batches.first?.appPriority == nil)
    }

    /// A table of another shape (a later platform's) is not read on a guess.
    @Test func aPriorityTableOfAnotherShapeIsNotRead() throws {
        let path = try export(priorities: nil)
        let db = try HealthConnectTestDatabase.reopen(path)
        try db.exec("CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY, category INTEGER, apps TEXT)")
        try db.exec("INSERT INTO health_data_category_priority_table (category, apps) VALUES (6, '1')")
        db.close()
        let file = try read(path)
        #expect(file.batches.first?.appPriority == nil)
        #expect(file.batches.first?.resting.count == 1)
    }
}
