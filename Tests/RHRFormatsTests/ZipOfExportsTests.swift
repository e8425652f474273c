import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// Zips that hold more than one export, or links: nothing in them is passed over without a word (docs/design.md
/// section 2). Made with Info-ZIP's `zip` from the bundled samples.
@Suite("zips holding several exports, or links")
struct ZipOfExportsTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func sample(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: SourceTree.samples + "/" + path)))
    }

    /// The database of the Health Connect sample, out of its zip.
    func healthConnectDatabase() throws -> [UInt8] {
        let unzip = try #require(Subprocess.which("unzip"), "unzip is not installed; scripts/setup installs it")
        try dir.write("Health Connect.zip", try sample("health-connect/Health Connect.zip"))
        let out = try Subprocess.run(unzip, ["-q", "-o", "Health Connect.zip"], directory: dir.path)
        try #require(out.status == 0, "\(out.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("health_connect_export.db"))))
    }

    func read(_ path: String) throws(InputError) -> ImportedFile {
        try FileImporter.read(path: path, options: ImportOptions(machineZone: TimeZone(identifier: "Europe/Berlin")!))
    }

    @Test("an Apple export and a Health Connect database in one zip: both are read, each its own batch")
    func appleAndHealthConnect() throws {
        try dir.write("apple_health_export/export.xml", try sample("apple-health/export-1.xml"))
        try dir.write("android/health_connect_export.db", try healthConnectDatabase())
        let zip = try dir.zip("both.zip", ["apple_health_export/export.xml", "android/health_connect_export.db"])
        let file = try read(zip)
        #expect(file.kind == .exports([.appleHealthZip(member: "apple_health_export/export.xml"),
                                      .healthConnectZip(member: "android/health_connect_export.db")]))
        #expect(file.kind.description == "Apple Health export (zip) and Health Connect export (zip)")
        #expect(file.batches.map(\.store) == [.healthKit, .healthConnect])
        #expect(file.batches.map(\.stream) == [AppleHealthReader.stream, HealthConnectReader.stream])
        let apple = try read(dir.file("apple_health_export/export.xml"))
        let healthConnect = try read(dir.file("android/health_connect_export.db"))
        #expect(file.recordsRead == apple.recordsRead + healthConnect.recordsRead)
        #expect(file.batches.first?.resting == apple.batches.first?.resting)
        #expect(file.batches.last?.resting == healthConnect.batches.first?.resting)
    }

    @Test("two Apple exports in one zip: the first is read, and the other is named as not read, with why")
    func twoAppleExports() throws {
        try dir.write("apple_health_export/export.xml", try sample("apple-health/export-2.xml"))
        try dir.write("older/apple_health_export/export.xml", try sample("apple-health/export-1.xml"))
        let zip = try dir.zip("two.zip", ["apple_health_export/export.xml", "older/apple_health_export/export.xml"])
        let file = try read(zip)
        #expect(file.kind == .appleHealthZip(member: "apple_health_export/export.xml"))
        #expect(file.batches.count == 1)
        #expect(file.notes == ["another Apple Health export in the zip, not read (import it on its own): "
            + "older/apple_health_export/export.xml"])
    }

    @Test("two Health Connect databases in one zip: the first is read, and the other is named as not read")
    func twoHealthConnectDatabases() throws {
        let db = try healthConnectDatabase()
        try dir.write("a/health_connect_export.db", db)
        try dir.write("b/health_connect_export.db", db)
        let zip = try dir.zip("two.zip", ["a/health_connect_export.db", "b/health_connect_export.db"])
        let file = try read(zip)
        #expect(file.kind == .healthConnectZip(member: "a/health_connect_export.db"))
        #expect(file.notes == ["another Health Connect export in the zip, not read (import it on its own): "
            + "b/health_connect_export.db"])
    }

    @Test("a member that is a symbolic link is named as one, with where it points")
    func symlinkMember() throws {
        try dir.write("real/export.xml", try sample("apple-health/export-1.xml"))
        try FileManager.default.createDirectory(atPath: dir.file("apple_health_export"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.file("apple_health_export/export.xml"),
                                                   withDestinationPath: "../real/export.xml")
        let zip = try dir.zip("linked.zip", ["apple_health_export/export.xml"], extraOptions: ["-y"])
        let error = try #require(throws: InputError.self) { try read(zip) }
        #expect(error.message == "a zip archive, but neither an Apple Health nor a Health Connect export: its members are "
            + "apple_health_export/export.xml; apple_health_export/export.xml is a symbolic link (to ../real/export.xml), "
            + "which rhr does not follow")
    }
}
