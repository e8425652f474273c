import Foundation
import RHRCore
@testable import RHRDashboard
import RHRLive
import RHRStore
import RHRTestSupport
import Testing

// `TemporaryDirectory`, `TestDaemon`, `eventually`, `ts`, `day` and `utc` come from RHRTestSupport.

/// A daemon on `directory`'s socket that serves `storePath` (the directory's store unless named) and looks for
/// other processes' writes every 50 ms.
func liveDaemon(_ directory: TemporaryDirectory, storePath: String? = nil) throws -> TestDaemon {
    try TestDaemon(directory: directory) { configuration in
        configuration.externalChangeInterval = 0.05
        if let storePath { configuration.storePath = storePath }
    }
}

/// Whether `fd` becomes readable within `timeout` seconds.
func readable(_ fd: Int32?, timeout: Double = 10) -> Bool {
    guard let fd else { return false }
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, Int32(timeout * 1000)) > 0
}

/// Everything the dashboard shows, read in full by `rhr`'s own loader.
func fullData(_ database: HealthDatabase) throws -> DashboardData {
    try DashboardLoader.load(database, source: database.path)
}

/// A store with a history shaped like a real one: ninety days to 12 Mar 2026 of an Apple Watch (an export of
/// 12 Mar 21:00, after an earlier one whose drafts it replaced), a Withings scale every third day, Oura through
/// Health Connect (one day without an offset), and sedentary heart rate on the last ten days.
enum History {
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let withings = Writer(store: .healthKit, name: "Withings")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    static let lastDay = day("2026-03-12")

    static func watchSample(_ day: LocalDay, _ value: Double, uuid: String? = nil, minutes: Int = 0) -> RestingSample {
        let midnight = day.startEpochSeconds - 3600
        return RestingSample(store: .healthKit, uuid: uuid, writer: watch,
                             device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
                             start: Date(timeIntervalSince1970: midnight + 180),
                             end: Date(timeIntervalSince1970: midnight + 85_680 - Double(minutes * 60)),
                             offsetSeconds: 3600, value: value,
                             created: Date(timeIntervalSince1970: midnight + 86_000))
    }

    static func heartRate(_ day: LocalDay, sedentary: [Double]) -> HeartRateDaySummary {
        var h = HeartRateDaySummary(writer: watch, day: day)
        for v in sedentary { h.add(bpm: v, context: .sedentary) }
        h.add(bpm: 118, context: .active)
        return h
    }

    static func build(at path: String) throws -> HealthDatabase {
        let database = try HealthDatabase(path: path, machineZone: utc)
        var watchSamples: [RestingSample] = [], drafts: [RestingSample] = [], scale: [RestingSample] = []
        var connect: [RestingSample] = [], heartRate: [HeartRateDaySummary] = []
        for i in 0..<90 {
            let d = lastDay.adding(days: i - 89)
            let value = Double(55 + (i * 7) % 9)
            watchSamples.append(watchSample(d, value))
            drafts.append(watchSample(d, i >= 87 ? value + 4 : value))
            if i % 3 == 0 {
                let t = Date(timeIntervalSince1970: d.startEpochSeconds - 3600 + 7 * 3600)
                scale.append(RestingSample(store: .healthKit, writer: withings, start: t, end: t, offsetSeconds: 3600,
                                           value: Double(60 + i % 5), created: t.addingTimeInterval(60)))
            }
            let t = Date(timeIntervalSince1970: d.startEpochSeconds - 3600 + 6 * 3600)
            connect.append(.healthConnect(id: String(format: "%032x", i + 1), writer: oura, time: t,
                                          zoneOffset: i == 80 ? nil : 3600, beatsPerMinute: Int64(52 + i % 6),
                                          recordingMethod: .automaticallyRecorded, lastModified: t))
            if i >= 80 { heartRate.append(Self.heartRate(d, sedentary: [50 + Double(i % 4), 57, 63])) }
        }
        let earlier = ts("2026-03-10T21:00:00+01:00"), asOf = ts("2026-03-12T21:00:00+01:00")
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: earlier, snapshot: .init(from: nil, to: earlier),
                      resting: Array(drafts.prefix(88)), watchWriters: [watch.name], origin: "export of 10 Mar"),
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                      resting: watchSamples + scale, heartRate: heartRate, watchWriters: [watch.name],
                      origin: "export of 12 Mar"),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-03-12T09:00:00+01:00"),
                      snapshot: .init(), resting: connect, origin: "Health Connect export"),
        ])
        return database
    }

    /// A bridge's batch on the `iphone` stream: cursor c<n-1> → c<n>.
    static func bridge(_ n: Int, asOf: String, _ samples: [RestingSample] = [], deleted: [String] = [],
                       heartRate: [HeartRateDaySummary] = [], fullResync: Bool = false) -> SyncBatch {
        SyncBatch(store: .healthKit, stream: "iphone", asOf: ts(asOf),
                  cursor: .init(previous: n == 1 ? nil : "c\(n - 1)", next: "c\(n)"), fullResync: fullResync,
                  resting: samples, heartRate: heartRate, deleted: deleted, watchWriters: [watch.name], origin: "iphone")
    }
}

/// Two indexes hold the same (`context` starts each failure's words): every writer's values under every aggregation, every day's samples, revisions
/// and heart rate, the context series, the writers, and the whole-store parts.
func expectSame(_ a: DashboardIndex, _ b: DashboardIndex, _ context: String = "",
                sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.revision == b.revision, "\(context)revision", sourceLocation: sourceLocation)
    #expect(a.writers.map(\.key) == b.writers.map(\.key), "\(context)writers", sourceLocation: sourceLocation)
    #expect(zip(a.writers, b.writers).allSatisfy { $0.appName == $1.appName && $0.bundleIdentifier == $1.bundleIdentifier
        && $0.productType == $1.productType }, "\(context)writer details", sourceLocation: sourceLocation)
    #expect(a.contextWriters.map(\.key) == b.contextWriters.map(\.key), "\(context)context writers", sourceLocation: sourceLocation)
    #expect(a.diagnosis == b.diagnosis, "\(context)diagnosis", sourceLocation: sourceLocation)
    #expect([a.firstDay, a.lastDay, a.firstRestingDay, a.lastRestingDay]
            == [b.firstDay, b.lastDay, b.firstRestingDay, b.lastRestingDay], "\(context)first and last days", sourceLocation: sourceLocation)
    #expect(a.storeAsOf.map { $0.store } == b.storeAsOf.map { $0.store } && a.storeAsOf.map { $0.asOf } == b.storeAsOf.map { $0.asOf },
            "currency", sourceLocation: sourceLocation)
    #expect(a.stores == b.stores, "\(context)stores", sourceLocation: sourceLocation)
    #expect(a.data.contents == b.data.contents, "\(context)contents", sourceLocation: sourceLocation)
    #expect(a.data.streams == b.data.streams, "\(context)streams", sourceLocation: sourceLocation)
    #expect(firstDifference(a.data.samples, b.data.samples) == nil, "\(context)samples", sourceLocation: sourceLocation)
    #expect(a.data.heartRateDays == b.data.heartRateDays, "\(context)heart-rate days", sourceLocation: sourceLocation)
    #expect(Set(a.data.revisions) == Set(b.data.revisions), "\(context)revisions", sourceLocation: sourceLocation)
    for w in a.writers.indices where w < b.writers.count {
        for aggregation in Aggregation.allCases {
            let x = a.values(writer: w, aggregation: aggregation), y = b.values(writer: w, aggregation: aggregation)
            #expect(x == y && zip(x, y).allSatisfy { $0.asOf == $1.asOf },
                    "values of \(a.writers[w].name), \(aggregation)", sourceLocation: sourceLocation)
        }
    }
    // What each writer's number is and how late it comes: kept for the writers a patch did not touch.
    #expect(a.facts == b.facts, "\(context)writer facts", sourceLocation: sourceLocation)
    #expect(a.writers.indices.map(a.lateness) == b.writers.indices.map(b.lateness), "\(context)lateness", sourceLocation: sourceLocation)
    for c in a.contextWriters.indices where c < b.contextWriters.count {
        let x = a.sedentaryMinima(contextWriter: c), y = b.sedentaryMinima(contextWriter: c)
        #expect(x.map { $0.day } == y.map { $0.day } && x.map { $0.bpm } == y.map { $0.bpm }, "\(context)sedentary minima", sourceLocation: sourceLocation)
    }
    let days = Set(a.data.samples.map(\.day) + b.data.samples.map(\.day) + a.data.revisions.map(\.day)
                   + b.data.revisions.map(\.day) + a.data.heartRateDays.map(\.day) + b.data.heartRateDays.map(\.day))
    for d in days.sorted() {
        #expect(firstDifference(a.samples(on: d), b.samples(on: d)) == nil, "\(context)samples on \(d)", sourceLocation: sourceLocation)
        #expect(a.revisions(on: d) == b.revisions(on: d), "\(context)revisions on \(d)", sourceLocation: sourceLocation)
        #expect(a.heartRate(on: d) == b.heartRate(on: d), "\(context)heart rate on \(d)", sourceLocation: sourceLocation)
        #expect(a.neighbours(of: d) == b.neighbours(of: d), "\(context)neighbours of \(d)", sourceLocation: sourceLocation)
    }
}

/// Where two lists of samples first differ, in words short enough for a failure message.
func firstDifference(_ a: [DaySample], _ b: [DaySample]) -> String? {
    for (i, (x, y)) in zip(a, b).enumerated() where x != y {
        return "#\(i) on \(x.day): \(x.sample.writer.name) \(x.sample.value) asOf \(x.asOf?.description ?? "-") "
            + "\(x.stream) provisional \(x.provisional) ≠ \(y.sample.writer.name) \(y.sample.value) asOf "
            + "\(y.asOf?.description ?? "-") \(y.stream) provisional \(y.provisional)"
    }
    return a.count == b.count ? nil : "\(a.count) samples ≠ \(b.count)"
}
