import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

/// Records a device data provider wrote (docs/design.md section 2): Health Connect stores them under a synthetic
/// package of the device, `com.android.healthconnect.<type>.d<32 hex>`, with the provider app in
/// `device_data_provider_metadata_table`. rhr names the provider app as the writer and the device by its display
/// name; the synthetic package is never a writer, and never leaves the reader.
@Suite("Health Connect export: device data providers")
struct HealthConnectProviderTests {
    func read(_ db: HealthConnectTestDatabase) throws -> ImportedFile {
        db.close()
        return try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
    }

    func resting(_ file: ImportedFile, _ uuid: String) -> RestingSample? {
        file.batches.first?.resting.first { $0.uuid == uuid }
    }

    static let time = epochMillis("2026-03-10T06:12:00+01:00")

    @Test("the provider app is the writer, the device is named by its display name, else its maker and model")
    func providerAndDevice() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders()
        try db.addApp("com.ouraring.oura", name: "Oura")
        let ring = try db.addProvidedDevice(type: "ring", manufacturer: "Oura", model: "Oura Ring 4", deviceType: 4,
                                            displayName: "Jane's ring", deviceId: "SN-RING")
        let band = try db.addProvidedDevice(type: "fitness_band", manufacturer: "Xiaomi", model: "Smart Band 9", deviceType: 6,
                                            displayName: nil, deviceId: "SN-BAND")
        let oura = try db.addProvider("com.ouraring.oura")
        let mi = try db.addProvider("com.mi.health")
        try db.addResting(uuid: String(repeating: "a1", count: 16), time: Self.time, offset: 3600, bpm: 51, app: ring.app,
                          device: ring.device, method: 2, provider: oura)
        // No device on the record: the one Health Connect linked to the synthetic package.
        try db.addResting(uuid: String(repeating: "a2", count: 16), time: Self.time, offset: 3600, bpm: 62, app: band.app,
                          provider: mi)
        try db.addHeartRate(uuid: String(repeating: "b1", count: 16), app: ring.app, startOffset: 3600,
                            samples: [(Self.time, 58), (Self.time + 60_000, 60)], provider: oura)
        let file = try read(db)
        let first = try #require(resting(file, String(repeating: "a1", count: 16)))
        #expect(first.writer.name == "com.ouraring.oura" && first.writer.appName == "Oura")
        #expect(first.device == Device(name: "Jane's ring", manufacturer: "Oura", model: "Oura Ring 4", type: 4))
        #expect(first.device?.summary == "Jane's ring (ring)")
        #expect(first.recordingMethod == .automaticallyRecorded)
        let second = try #require(resting(file, String(repeating: "a2", count: 16)))
        #expect(second.writer.name == "com.mi.health" && second.writer.appName == nil, "a provider with no app row of its own")
        #expect(second.device?.summary == "Xiaomi Smart Band 9 (fitness band)")
        let batch = try #require(file.batches.first)
        #expect(batch.heartRate.map(\.writer.name) == ["com.ouraring.oura"])
        #expect(file.passedOver.isEmpty)
        #expect(!"\(batch)".contains("com.android.healthconnect"), "no synthetic package anywhere in the batch")
    }

    @Test("a record of a synthetic package with no provider is named without the package's hash")
    func syntheticWithoutProvider() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders()
        let phone = try db.addProvidedDevice(type: "phone", manufacturer: "Google", model: "Pixel 9", deviceType: 2,
                                             displayName: "Pixel 9", deviceId: "SN-PHONE")
        // A provider id below 1 is none, as the platform reads it.
        for (i, provider) in [nil, 0 as Int64].enumerated() {
            try db.addResting(uuid: String(format: "%032x", 0xc0 + i), time: Self.time, offset: 3600, bpm: 55, app: phone.app,
                              provider: provider)
        }
        let file = try read(db)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.count == 2)
        #expect(batch.resting.allSatisfy { $0.writer.name == "com.android.healthconnect.phone" && $0.device?.name == "Pixel 9" })
        #expect(!"\(batch)".contains("com.android.healthconnect.phone.d"))
    }

    @Test("a provider rhr cannot name costs only its records, each passed over with its reason")
    func unknownProvider() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders()
        let ring = try db.addProvidedDevice(type: "ring", manufacturer: "Oura", model: nil, deviceType: 4, displayName: nil,
                                            deviceId: "SN")
        let fit = try db.addApp("com.google.android.apps.fitness", name: "Fit")
        let blank = try db.addProvider("")
        try db.addResting(uuid: String(repeating: "d1", count: 16), time: Self.time, offset: 3600, bpm: 50, app: ring.app, provider: 99)
        try db.addResting(uuid: String(repeating: "d2", count: 16), time: Self.time, offset: 3600, bpm: 50, app: ring.app, provider: blank)
        try db.addResting(uuid: String(repeating: "d3", count: 16), time: Self.time, offset: 3600, bpm: 61, app: fit, method: 3)
        let file = try read(db)
        #expect(file.passedOver.records.map(\.reason) == [
            "row_id 1: device_data_provider_id 99 has no row in device_data_provider_metadata_table",
            "row_id 2: device_data_provider_id 1: its source_package_name in device_data_provider_metadata_table is empty",
        ])
        #expect(file.batches.first?.resting.map(\.value) == [61])
    }

    @Test("without the providers' table, only the records that name a provider are passed over")
    func providersTableAbsent() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders(metadataTable: false)
        let fit = try db.addApp("com.google.android.apps.fitness", name: "Fit")
        try db.addResting(uuid: String(repeating: "e1", count: 16), time: Self.time, offset: 3600, bpm: 50, app: fit, provider: 1)
        try db.addResting(uuid: String(repeating: "e2", count: 16), time: Self.time, offset: 3600, bpm: 61, app: fit)
        let file = try read(db)
        #expect(file.passedOver.records.map(\.reason)
            == ["row_id 1: device_data_provider_id 1: the export has no device_data_provider_metadata_table"])
        #expect(file.batches.first?.resting.map(\.value) == [61])
    }

    @Test("a providers' table without the column that names the app is refused, naming table and column")
    func providersTableWithoutPackage() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders(metadataTable: false)
        try db.exec("CREATE TABLE device_data_provider_metadata_table (row_id INTEGER PRIMARY KEY, package TEXT)")
        db.close()
        let error = try #require(throws: InputError.self) {
            try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        }
        #expect(error.message == "table device_data_provider_metadata_table has no column source_package_name, which rhr "
            + "needs to name the apps of device data providers (schema version 23): not a Health Connect export rhr can read")
    }

    @Test("a synthetic package in the app priority is left out: it names a device, not an app")
    func syntheticInPriority() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addDeviceDataProviders()
        let oura = try db.addApp("com.ouraring.oura", name: "Oura")
        let ring = try db.addProvidedDevice(type: "ring", manufacturer: "Oura", model: nil, deviceType: 4, displayName: nil,
                                            deviceId: "SN")
        try db.addResting(uuid: String(repeating: "f1", count: 16), time: Self.time, offset: 3600, bpm: 50, app: oura)
        try db.exec("""
            CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY, health_data_category INTEGER UNIQUE,
              app_id_priority_order TEXT NOT NULL);
            INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES (6, '\(ring.app),\(oura)');
            """)
        let file = try read(db)
        #expect(file.batches.first?.appPriority == ["com.ouraring.oura"])
        #expect(file.skipped.isEmpty)
    }
}
