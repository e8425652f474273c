// The folder watch's account of a file: the same words and rules as `rhr import`'s (docs/design.md R14, the account).
import Foundation
import RHRCore
@testable import RHRDaemon
@testable import RHRDaemonClient
import RHRTestSupport
import Testing

/// A file the folder watch imports is accounted for as `rhr import` accounts for it: its log line (`WatchImport.summary`,
/// also what `rhr status` lists) names every outcome and the counts add up to the records read; a file of which nothing
/// could be used is refused, keeping what it passed over, and dates no road.
@Suite("folder watch: the account")
struct FolderWatchAccountTests {
    /// An Apple export with a resting value, one that is not a number, heart rate with and without a value, and steps.
    static let damagedExport = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-20 21:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-11 00:01:00 +0100" endDate="2024-03-11 23:30:00 +0100" value="57"/>
         <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-12 00:01:00 +0100" endDate="2024-03-12 23:30:00 +0100" value="abc"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-12 10:00:00 +0100" endDate="2024-03-12 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-12 10:30:00 +0100" endDate="2024-03-12 10:30:00 +0100" value="70"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2024-03-12 10:00:00 +0100" endDate="2024-03-12 10:05:00 +0100" value="120"/>
        </HealthData>

        """

    /// The next `imported` event.
    static func nextImport(_ subscriber: DaemonClient) throws -> DaemonEvent {
        while true {
            let event = try subscriber.nextEvent(timeout: 20)
            if event.name == "imported" { return event }
        }
    }

    @Test func theLogLineGivesTheWholeAccountAsRhrImportDoes() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        FolderWatchTests.append(Array(Self.damagedExport.utf8)[...], to: directory.file("inbox/export.xml"))
        let event = try Self.nextImport(subscriber)
        let expected = "export.xml: Apple Health export (XML): 5 records read; HealthKit resting samples 1 added, 0 replaced, "
            + "0 deleted; 1 heart-rate reading (kept as day summaries, R8); 1 skipped: records of other types; 2 records passed "
            + "over (kept in the store, rhr status lists them)"
        #expect(event.imported?.summary == expected, "\(event)")
        // As `rhr status` lists it, from the ledger beside the store after a restart.
        try daemon.stop()
        let again = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let imports = try again.client().request(.status).decode(StatusReply.self).imports
        #expect(imports.map(\.summary) == [expected])
    }

    /// The case: a spreadsheet re-saved a Health Auto Export CSV's dates. Refused for what it holds (remembered,
    /// not tried again), its passed-over rows kept, no road dated by it.
    @Test func aFileOfWhichNothingCouldBeUsedIsRefusedAndKeepsWhatItPassedOver() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        let rows = (1...5).map { "12/\($0)/2023 0:00,\(50 + $0)," }
        let path = directory.file("inbox/resaved.csv")
        FolderWatchTests.append(Array((["Date,Resting Heart Rate (count/min),Heart Rate [Avg] (count/min)"] + rows)
            .joined(separator: "\n").appending("\n").utf8)[...], to: path)
        let event = try Self.nextImport(subscriber)
        #expect(event.imported?.ok == false, "\(event)")
        let why = "nothing in \(path) could be used: 5 records passed over, kept in the store (rhr status lists them): "
            + "5 Health Auto Export rows whose date is not a date (first at line 2)"
        #expect(event.imported?.error == why, "\(event)")
        #expect(event.imported?.summary == "resaved.csv: skipped: " + why)
        #expect(try FolderWatchTests.ledgerKnows(directory, path))
        let store = try directory.store()
        #expect(try store.passedOver().total == 5)
        #expect(try store.streams().isEmpty)
        #expect(try subscriber.receiveAvailable().isEmpty, "a change was announced")
    }
}
