import Foundation
import RHRCore
import RHRFormats
import RHRJSON
import RHRStore
import class RHRTestSupport.TemporaryDirectory

/// Applies a 1,000-sample batch to a store holding 10 years × 8 writers (docs/design.md section 7: ≤ 50 ms),
/// beside a baseline measured in the same run: the same store applying a batch of one sample.
enum StoreBench {
    static func run(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory(prefix: "rhr-bench-store")
        defer { withExtendedLifetime(directory) {} }
        let store = try HealthDatabase(path: directory.storePath, machineZone: TimeZone(identifier: "UTC")!)

        let years = 10
        let firstDay = LocalDay(year: 2016, month: 1, day: 1)!
        let days = years * 365
        let buildStart = Date()
        let setup = BenchData(firstDay: firstDay, days: days)
        for chunk in stride(from: 0, to: days, by: 365) {
            _ = try store.apply(setup.batches(dayRange: chunk..<min(days, chunk + 365)))
        }
        let built = Date().timeIntervalSince(buildStart)
        let total = try store.samples().count
        print(String(format: "store: built %d samples (10 years × %d writers) in %.2f s", total, DashboardHistory.writerCount, built))

        var big: [Double] = []
        var small: [Double] = []
        for round in 0..<7 {
            // 1,000 samples: a new stream's batch spread over the last 1,000 days, a third of them replacements.
            let batch = setup.liveBatch(round: round, count: 1000)
            let t0 = Date()
            _ = try store.apply(batch)
            big.append(Date().timeIntervalSince(t0))
            let one = setup.liveBatch(round: 100 + round, count: 1)
            let t1 = Date()
            _ = try store.apply(one)
            small.append(Date().timeIntervalSince(t1))
        }
        let bigMedian = median(big) * 1000, smallMedian = median(small) * 1000
        print(String(format: "store: apply 1,000-sample batch  median %.1f ms  max %.1f ms  (target ≤ 50 ms: %.2f × target)",
                     bigMedian, (big.max() ?? 0) * 1000, bigMedian / 50))
        print(String(format: "store: apply 1-sample batch      median %.2f ms (baseline); 1,000 samples = %.0f × baseline",
                     smallMedian, bigMedian / max(smallMedian, 0.001)))
        try parseBatchLine(setup.liveBatch(round: 0, count: 1000))
    }

    /// rhr's JSON parser against Foundation's `JSONSerialization` (the baseline) on the same bytes: the 1,000-sample
    /// batch as the line a bridge sends (docs: why rhr keeps its own parser, in `JSONParser`).
    static func parseBatchLine(_ batch: SyncBatch) throws {
        let line = JSONWriter.bytes(SyncBatchJSON.encode(batch))
        let (ours, foundation) = try parseTimes(Data(line), runs: 15)
        let oursMedian = ours * 1000, foundationMedian = foundation * 1000
        print(String(format: "store: parse a 1,000-sample batch line (%d KB)  median %.2f ms; JSONSerialization %.2f ms "
                     + "(baseline); rhr's parser takes %.2f × baseline",
                     line.count >> 10, oursMedian, foundationMedian, oursMedian / max(foundationMedian, 0.001)))
    }

    /// The median times of rhr's parser and of `JSONSerialization` on the same bytes, parsed `runs` times each, in turn.
    static func parseTimes(_ data: Data, runs: Int) throws -> (ours: Double, foundation: Double) {
        var ours: [Double] = [], foundation: [Double] = []
        for _ in 0..<runs {
            let t0 = Date()
            _ = try JSONParser.parse(data)
            ours.append(Date().timeIntervalSince(t0))
            let t1 = Date()
            _ = try JSONSerialization.jsonObject(with: data)
            foundation.append(Date().timeIntervalSince(t1))
        }
        return (median(ours), median(foundation))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Deterministic data shaped like a real store: a watch, two HealthKit apps, three Health Connect writers.
struct BenchData {
    let firstDay: LocalDay
    let days: Int
    let writers: [Writer] = [
        Writer(store: .healthKit, name: "Jane’s Apple Watch", productType: "Watch7,1"),
        Writer(store: .healthKit, name: "Withings"),
        Writer(store: .healthKit, name: "Oura"),
        Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura"),
        Writer(store: .healthConnect, name: "com.samsung.android.wear.shealth", appName: "Samsung Health"),
        Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile", appName: "Fitbit"),
    ]

    func sample(writer: Writer, day: LocalDay, salt: Int) -> RestingSample {
        let start = Date(timeIntervalSince1970: day.startEpochSeconds - 3600 + 180)
        let value = 52 + Double((day.daysSinceEpoch * 7 + salt * 3) % 11)
        if writer.store == .healthKit {
            return RestingSample(store: .healthKit, writer: writer, start: start,
                                 end: start.addingTimeInterval(80_000), offsetSeconds: 3600, value: value)
        }
        return RestingSample.healthConnect(id: "\(writer.name)-\(day.daysSinceEpoch)-\(salt)", writer: writer,
                                           time: start.addingTimeInterval(20_000), zoneOffset: 3600,
                                           beatsPerMinute: Int64(value), lastModified: start.addingTimeInterval(21_000))
    }

    /// A year of history: one batch per store (R1 keeps them apart).
    func batches(dayRange: Range<Int>) -> [SyncBatch] {
        var resting: [RestingSample] = []
        for d in dayRange {
            for (i, w) in writers.enumerated() { resting.append(sample(writer: w, day: firstDay.adding(days: d), salt: i)) }
        }
        let asOf = Timestamp(epochSeconds: firstDay.adding(days: dayRange.upperBound).startEpochSeconds, offsetSeconds: 3600)
        return HealthStore.allCases.map { store in
            SyncBatch(store: store, stream: "history", asOf: asOf, resting: resting.filter { $0.store == store })
        }
    }

    /// `count` HealthKit samples on recent days; every third one the same identity as a stored one, another value.
    func liveBatch(round: Int, count: Int) -> SyncBatch {
        var resting: [RestingSample] = []
        let watch = writers[0]
        for i in 0..<count {
            let day = firstDay.adding(days: days - 1 - (i % 1000))
            var s = sample(writer: watch, day: day, salt: 0)
            if i % 3 != 0 { s.end = s.end.addingTimeInterval(Double(round * 1000 + i + 1)) }
            s.value = 50 + Double((round + i) % 13)
            resting.append(s)
        }
        let asOf = Timestamp(epochSeconds: firstDay.adding(days: days).startEpochSeconds, offsetSeconds: 3600)
        return SyncBatch(store: .healthKit, stream: "live", asOf: asOf, resting: resting)
    }
}
