import Foundation
import RHRCore
import RHRFormats
import RHRTestSupport
import Testing

/// R13's last clause for the shapes whose own time the readers find: a Health Connect zip whose member time is 2099,
/// a bare Health Connect database whose newest modification is 2099, an Apple export zip whose `ExportDate` is 2099.
/// The reader reports the time the file claims; the batch as the store takes it (`SyncBatch.datedByReceipt`) is dated
/// by when it was read, and says so. (The store's side: ImportAccountTests; `rhr import`: ImportAccountLineTests.)
@Suite("Inputs from the future")
struct FutureDatedInputTests {
    let now = ts("2026-12-05T20:00:00Z")

    func healthConnectDatabase(_ dir: TemporaryDirectory, modified: String) throws -> String {
        let db = try HealthConnectTestDatabase(path: dir.file("health_connect_export.db"))
        let app = try db.addApp("com.ouraring.oura", name: "Oura")
        try db.addResting(uuid: "00112233445566778899aabbccddeeff", time: epochMillis("2026-12-04T05:00:00Z"), offset: 3600,
                          bpm: 54, app: app, modified: epochMillis(modified))
        db.close()
        return db.path
    }

    func taken(_ path: String) throws -> (batch: SyncBatch, notes: [FutureDelivery]) {
        let file = try FileImporter.read(path: path, options: ImportOptions(machineZone: utc))
        return try #require(file.batches.first).datedByReceipt(now: now)
    }

    @Test func aHealthConnectZipWhoseMemberTimeIs2099() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db",
            bytes: try HealthConnectTestZip.bytes(of: try healthConnectDatabase(dir, modified: "2026-12-04T06:00:00Z")),
            modified: date("2099-01-01T00:00:00Z"))])
        let (batch, notes) = try taken(zip)
        // The member time claimed both the export's asOf and when the file was made.
        #expect(notes.map(\.claim) == [.asOf, .madeAt])
        #expect(notes.first?.words == "export dated 1 Jan 2099, later than this machine's clock: dated by when it was read "
                + "(5 Dec 20:00 +00:00)")
        #expect(batch.asOf == now && batch.file?.madeAt == nil)
    }

    @Test func aBareHealthConnectDatabaseWhoseNewestChangeIs2099() throws {
        let dir = try TemporaryDirectory()
        let (batch, notes) = try taken(try healthConnectDatabase(dir, modified: "2099-01-01T00:00:00Z"))
        #expect(notes.map(\.claim) == [.asOf])
        #expect(batch.asOf == now)
    }

    @Test func anAppleExportZipDated2099() throws {
        let dir = try TemporaryDirectory()
        let xml = String(decoding: try HealthConnectTestZip.bytes(of: SourceTree.samples + "/apple-health/export-2.xml"), as: UTF8.self)
            .replacingOccurrences(of: "<ExportDate value=\"2026-03-17 21:10:00 +0100\"/>", with: "<ExportDate value=\"2099-01-01 09:00:00 +0100\"/>")
        let zip = dir.file("export.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "apple_health_export/export.xml", bytes: Array(xml.utf8))])
        let (batch, notes) = try taken(zip)
        #expect(notes.map(\.claim) == [.asOf])
        #expect(notes.first?.words.hasPrefix("export dated 1 Jan 2099, later than this machine's clock") == true)
        // The period the export speaks for ends when it was read, too.
        #expect(batch.asOf == now && batch.snapshot?.to == now)
    }

    @Test func aTimeWithinADayOfTheClockIsBelieved() throws {
        let dir = try TemporaryDirectory()
        let (batch, notes) = try taken(try healthConnectDatabase(dir, modified: "2026-12-06T19:00:00Z"))
        #expect(notes.isEmpty && batch.asOf == ts("2026-12-06T19:00:00Z"))
    }
}
