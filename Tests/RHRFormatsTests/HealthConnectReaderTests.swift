import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

/// Three writers as the notes describe them: a ring, a watch, a manual entry.
struct HealthConnectThreeWriters {
    var ring: Int64 = 0, watch: Int64 = 0, manual: Int64 = 0
    var ringDevice: Int64 = 0, watchDevice: Int64 = 0

    static let ringRecord = "6f1c9a2e4b7d4e0f8a3b2c1d0e9f8a7b"
    static let tripRecord = "0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f"
    static let nullOffsetRecord = "11111111222233334444555555555555"
    static let zeroRecord = "aaaaaaaabbbbccccddddeeeeeeeeeeee"
    static let highRecord = "fedcba98765432100123456789abcdef"

    /// Resting records: the ring at home (+01:00) and on a trip (+09:00), the watch with a zero and a 301,
    /// a manual entry with a null offset.
    @discardableResult
    static func fill(_ db: HealthConnectTestDatabase) throws -> HealthConnectThreeWriters {
        var w = HealthConnectThreeWriters()
        w.ring = try db.addApp("com.ouraring.oura", name: "Oura")
        w.watch = try db.addApp("com.samsung.android.wear.shealth", name: "Samsung Health")
        w.manual = try db.addApp("com.google.android.apps.healthdata", name: "Health Connect")
        w.ringDevice = try db.addDevice(manufacturer: "Oura", model: "Ring Gen3", type: 4)
        w.watchDevice = try db.addDevice(manufacturer: "Samsung", model: "Galaxy Watch6", type: 1)
        try db.addResting(uuid: ringRecord, time: epochMillis("2026-03-10T06:12:00+01:00"), offset: 3600, bpm: 57,
                          app: w.ring, device: w.ringDevice, method: 2, modified: epochMillis("2026-03-10T06:20:00+01:00"),
                          clientId: "oura-2026-03-10", clientVersion: "3")
        try db.addResting(uuid: tripRecord, time: epochMillis("2026-03-12T06:30:00+09:00"), offset: 9 * 3600, bpm: 61,
                          app: w.ring, device: w.ringDevice, method: 2)
        try db.addResting(uuid: zeroRecord, time: epochMillis("2026-03-11T07:00:00+01:00"), offset: 3600, bpm: 0,
                          app: w.watch, device: w.watchDevice, method: 2)
        try db.addResting(uuid: highRecord, time: epochMillis("2026-03-11T08:00:00+01:00"), offset: 3600, bpm: 301,
                          app: w.watch, device: w.watchDevice, method: 2)
        try db.addResting(uuid: nullOffsetRecord, time: epochMillis("2026-03-10T23:30:00Z"), offset: nil, bpm: 64,
                          app: w.manual, method: 3)
        return w
    }

    /// A database at `path` (of schema `version`) holding these three writers, closed: a file to read.
    @discardableResult
    static func database(at path: String, version: Int = 17) throws -> String {
        let db = try HealthConnectTestDatabase(path: path, version: version)
        try fill(db)
        db.close()
        return path
    }
}

@Suite("Health Connect export: records")
struct HealthConnectReaderTests {
    func readBare(_ build: (HealthConnectTestDatabase) throws -> Void, layout: HealthConnectTestDatabase.Layout = .upgraded,
                  zone: TimeZone = berlinZone) throws -> (ImportedFile, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("health_connect_export.db"), layout: layout)
        try build(db)
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: zone), progress: nil)
        return (file, dir)
    }

    @Test("resting records keep writer, app name, device, recording method, offset, last-modified time and client ids")
    func restingRecordFields() throws {
        let (file, _) = try readBare { try HealthConnectThreeWriters.fill($0) }
        #expect(file.kind == .healthConnectDatabase)
        #expect(file.batches.count == 1)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.count == 5)
        let ring = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.ringRecord })
        #expect(ring.store == .healthConnect)
        #expect(ring.writer.name == "com.ouraring.oura")
        #expect(ring.writer.appName == "Oura")
        #expect(ring.device == Device(manufacturer: "Oura", model: "Ring Gen3", type: 4))
        #expect(ring.recordingMethod == .automaticallyRecorded)
        #expect(ring.offsetSeconds == 3600)
        #expect(ring.start == Timestamp.parse("2026-03-10T06:12:00+01:00")!.date)
        #expect(ring.end == ring.start)
        #expect(ring.value == 57)
        #expect(ring.unit == "count/min")
        #expect(ring.lastModified == Timestamp.parse("2026-03-10T06:20:00+01:00")!.date)
        #expect(ring.clientRecordId == "oura-2026-03-10")
        #expect(ring.clientRecordVersion == 3)

        let manual = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.nullOffsetRecord })
        #expect(manual.writer.name == "com.google.android.apps.healthdata")
        #expect(manual.recordingMethod == .manualEntry)
        #expect(manual.device == nil)
        #expect(manual.clientRecordId == nil)
        #expect(manual.clientRecordVersion == nil)
        #expect(file.recordsRead == 5)
        #expect(file.skipped.isEmpty)
    }

    @Test("the batch is a snapshot of the whole store on the health-connect-export stream")
    func batchShape() throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("export.db"))
        let file = try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone),
                                                progress: nil)
        let batch = try #require(file.batches.first)
        #expect(batch.store == .healthConnect)
        #expect(batch.stream == "health-connect-export")
        #expect(batch.snapshot == SyncBatch.Snapshot(from: nil, to: nil))
        #expect(batch.cursor == nil)
        #expect(!batch.fullResync)
        #expect(batch.deleted.isEmpty)
        #expect(throws: Never.self) { try batch.validate() }
    }

    @Test("a null offset stays nil for the store to assume and flag; the trip's +09:00 is kept")
    func offsets() throws {
        let (file, _) = try readBare { try HealthConnectThreeWriters.fill($0) }
        let batch = try #require(file.batches.first)
        let manual = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.nullOffsetRecord })
        #expect(manual.offsetSeconds == nil)
        // R5 as the store will apply it: 23:30Z is the next day in Berlin, flagged as assumed.
        let placed = LocalDayRule.day(of: manual, machineZone: berlinZone)
        #expect(placed.day == LocalDay("2026-03-11"))
        #expect(placed.offsetAssumed)
        let trip = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.tripRecord })
        #expect(trip.offsetSeconds == 9 * 3600)
        #expect(LocalDayRule.day(of: trip, machineZone: berlinZone).day == LocalDay("2026-03-12"))
    }

    @Test("zero and 301 are kept as delivered, out of range")
    func zeroAndHighKept() throws {
        let (file, _) = try readBare { try HealthConnectThreeWriters.fill($0) }
        let batch = try #require(file.batches.first)
        let zero = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.zeroRecord })
        let high = try #require(batch.resting.first { $0.uuid == HealthConnectThreeWriters.highRecord })
        #expect(zero.value == 0)
        #expect(high.value == 301)
        #expect(!zero.isInRange)
        #expect(!high.isInRange)
        #expect(zero.writer.name == "com.samsung.android.wear.shealth")
    }

    @Test("the id is lower(hex(uuid)) and matches the live feed's dashed upper-case id")
    func idMatchesLiveFeed() throws {
        let (file, _) = try readBare { try HealthConnectThreeWriters.fill($0) }
        let ring = try #require(file.batches.first?.resting.first { $0.writer.name == "com.ouraring.oura" && $0.value == 57 })
        let liveFeedId = "6F1C9A2E-4B7D-4E0F-8A3B-2C1D0E9F8A7B"
        #expect(ring.uuid == "6f1c9a2e4b7d4e0f8a3b2c1d0e9f8a7b")
        #expect(ring.uuid == SampleIdentity.normalisedRecordId(liveFeedId))
        let live = RestingSample.healthConnect(id: liveFeedId, writer: ring.writer, time: ring.start, zoneOffset: 3600,
                                               beatsPerMinute: 57)
        #expect(live.identity == ring.identity)
    }

    @Test("columns are selected by name: another order and local_date_time last read the same",
          arguments: HealthConnectTestDatabase.Layout.allCases)
    func columnOrder(layout: HealthConnectTestDatabase.Layout) throws {
        let (reference, _) = try readBare({ try HealthConnectThreeWriters.fill($0) }, layout: .upgraded)
        let (file, dir) = try readBare({ try HealthConnectThreeWriters.fill($0) }, layout: layout)
        _ = dir
        #expect(file.batches.first?.resting == reference.batches.first?.resting)
        #expect(file.batches.first?.resting.count == 5)
    }

    @Test("the test layouts really differ in column order")
    func layoutsDiffer() throws {
        var orders: [HealthConnectTestDatabase.Layout: [String]] = [:]
        for layout in HealthConnectTestDatabase.Layout.allCases {
            let dir = try TemporaryDirectory()
            let db = try HealthConnectTestDatabase(path: dir.file("x.db"), layout: layout)
            db.close()
            let opened = try HealthConnectDatabase(file: db.path, errorPath: db.path, member: nil)
            var names: [String] = []
            try opened.query("PRAGMA table_xinfo(resting_heart_rate_record_table)") { row throws(InputError) in
                names.append(row.text(1) ?? "")
            }
            orders[layout] = names
        }
        #expect(orders[.upgraded]?.last == "local_date_time")
        #expect(orders[.fresh]?.last == "beats_per_minute")
        #expect(orders[.shuffled]?.first == "beats_per_minute")
        #expect(Set(orders.values.map { $0.joined(separator: ",") }).count == 3)
    }

    @Test("records come in time order, whatever order they were inserted in")
    func timeOrder() throws {
        let (file, _) = try readBare { try HealthConnectThreeWriters.fill($0) }
        let times = try #require(file.batches.first).resting.map(\.start)
        #expect(times == times.sorted())
    }

    @Test("a record whose app is not in application_info_table is passed over naming the row (R14)")
    func danglingApp() throws {
        let db = try HealthConnectTestDatabase.scratch()
        try HealthConnectThreeWriters.fill(db)
        try db.addResting(uuid: "00000000000000000000000000000042", time: epochMillis("2026-03-13T06:00:00Z"), offset: 0,
                          bpm: 55, app: 99)
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let passed = try #require(file.passedOver.records.first)
        #expect(file.passedOver.records.count == 1)
        #expect(passed.place == "resting_heart_rate_record_table row_id 6")
        #expect(passed.reason == "row_id 6: app_info_id 99 has no row in application_info_table")
        // Kept raw: the row's columns as SQLite quotes them.
        #expect(passed.raw.contains("uuid=X'00000000000000000000000000000042'") && passed.raw.contains("app_info_id=99"), "\(passed.raw)")
        #expect(file.passedOver.source == db.path)
        #expect(file.batches[0].resting.count == 5)
    }

    @Test("a record with a time no calendar holds is passed over naming the row; elsewhere it does not set asOf")
    func timesOutOfRange() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"))
        let app = try db.addApp("com.ouraring.oura", name: "Oura")
        let good = epochMillis("2026-03-13T06:00:00Z")
        try db.addResting(uuid: "0102030405060708090a0b0c0d0e0f10", time: good, offset: 0, bpm: 55, app: app)
        // A table rhr does not read: its corrupt time must not become the export's date.
        try db.addSteps(uuid: "1102030405060708090a0b0c0d0e0f10", app: app, start: good, modified: Int64.max)
        try db.addHeartRate(uuid: "2102030405060708090a0b0c0d0e0f10", app: app, startOffset: 0,
                            samples: [(good, 60), (Int64.max, 61)])
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let batch = try #require(file.batches.first)
        #expect(batch.asOf.epochSeconds == Double(good) / 1000)
        #expect(batch.heartRate.map(\.total) == [1])
        #expect(file.skipped == ["heart-rate sample without a usable time or value": 1])

        for (time, modified) in [(Int64.max, good), (good, Int64.min)] {
            let bad = try HealthConnectTestDatabase(path: dir.file("bad-\(time)-\(modified).db"))
            let badApp = try bad.addApp("com.ouraring.oura", name: "Oura")
            try bad.addResting(uuid: "0102030405060708090a0b0c0d0e0f10", time: time, offset: 0, bpm: 55, app: badApp,
                               modified: modified)
            bad.close()
            let read = try HealthConnectReader.read(path: bad.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
            let column = time == good ? "last_modified_time \(modified)" : "time \(time)"
            #expect(read.passedOver.records.map(\.reason) == ["row_id 1: \(column) is not a time (milliseconds since 1970, years 1–9999)"])
            #expect(read.batches[0].resting.isEmpty)
        }
        // Nor does a damaged offset trap on the way to its error.
        let offset = try HealthConnectTestDatabase(path: dir.file("offset.db"))
        try offset.addResting(uuid: "0102030405060708090a0b0c0d0e0f10", time: good, offset: Int.min, bpm: 55,
                              app: try offset.addApp("com.ouraring.oura", name: "Oura"))
        offset.close()
        let read = try HealthConnectReader.read(path: offset.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        #expect(read.passedOver.records.map(\.reason) == ["row_id 1: zone_offset \(Int.min) is not an offset in seconds"])
    }

    @Test("records of an app whose package name holds a NUL, or is empty, are passed over: never cut at the NUL")
    func packageNames() throws {
        let db = try HealthConnectTestDatabase.scratch()
        let good = try db.addApp("com.ouraring.oura", name: "Oura")
        let nul = try db.addApp("com.ouraring.oura-x", name: "Oura")
        let empty = try db.addApp("com.empty", name: "Empty")
        try db.exec("UPDATE application_info_table SET package_name = 'com.ouraring.oura' || char(0) || 'x' WHERE row_id = \(nul)")
        try db.exec("UPDATE application_info_table SET package_name = '' WHERE row_id = \(empty)")
        for (k, app) in [good, nul, empty].enumerated() {
            try db.addResting(uuid: String(format: "%032x", 200 + k), time: epochMillis("2026-03-13T06:00:00Z") + Int64(k), offset: 0,
                              bpm: 55, app: app)
        }
        db.close()
        let read = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        #expect(read.batches[0].resting.map(\.writer.name) == ["com.ouraring.oura"])
        #expect(read.passedOver.records.map(\.reason) == [
            #"row_id 2: app_info_id \#(nul): its package_name "com.ouraring.oura<null>x" holds a NUL (U+0000) at character 18"#,
            "row_id 3: app_info_id \(empty): its package_name in application_info_table is empty"])
    }

    @Test("a record whose uuid is not 16 bytes is passed over naming the row")
    func shortUUID() throws {
        let db = try HealthConnectTestDatabase.scratch()
        let app = try db.addApp("com.ouraring.oura", name: "Oura")
        try db.addResting(uuid: "0102", time: epochMillis("2026-03-13T06:00:00Z"), offset: 0, bpm: 55, app: app)
        db.close()
        let read = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        #expect(read.passedOver.records.map(\.reason) == ["row_id 1: uuid is not 16 bytes"])
        #expect(read.passedOver.records.first?.kind == "Health Connect resting records rhr cannot read")
    }

    @Test("a bare database is read without changing a byte of it or creating files beside it")
    func bareDatabaseUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("health_connect_export.db"))
        let before = try HealthConnectTestZip.bytes(of: path)
        let modifiedBefore = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        _ = try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        #expect(try HealthConnectTestZip.bytes(of: path) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modifiedBefore)
        #expect(dir.entries() == ["health_connect_export.db"])
    }

    @Test("progress ends at the file's size")
    func progressReported() throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("export.db"))
        let seen = ProgressLog()
        _ = try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone),
                                         progress: { done, total in seen.append((done, total)) })
        let size = Int64(try HealthConnectTestZip.bytes(of: path).count)
        #expect(seen.all.last.map { [$0.0, $0.1] } == [size, size])
    }
}
