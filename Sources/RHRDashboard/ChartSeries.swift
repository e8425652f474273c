import RHRCore

/// What the chart draws, computed from the data before any drawing: per visible writer one point per bucket
/// (the day's value, or at week and month zoom the median of the bucket's daily values, with their min and max
/// for the whiskers), its 7-day rolling mean, the usual range of one writer, the context series when shown,
/// the buckets that carry a mark, and the range of everything drawn (for the bpm axis).
struct ChartSeries {
    struct Point: Equatable {
        var bucket: Int
        /// The day's value, or the median of the bucket's daily values.
        var bpm: Double
        /// The lowest and highest daily value in the bucket (the whisker).
        var low, high: Double
        /// One of the bucket's days is provisional (R3).
        var provisional: Bool
    }

    /// One writer's series in the window.
    struct Line {
        /// Index in the writers list.
        var writer: Int
        /// The writer's slot (`DashboardIndex.slots`): its glyph and colour.
        var slot: Int
        var points: [Point] = []
        /// The 7-day rolling mean, per bucket (empty unless asked for).
        var mean: [Point] = []
    }

    /// The band in one bucket: its first and third quartile (the median is not drawn).
    struct BandPoint: Equatable {
        var bucket: Int
        var lower: Double
        var upper: Double
    }

    /// Visible writers, in writer order.
    var lines: [Line] = []
    /// The sedentary minimum (R8) per context writer, when shown.
    var context: [[Point]] = []
    /// The usual range of writer `bandWriter`, when shown.
    var band: [BandPoint] = []
    var bandWriter: Int?
    /// The band writer's slot: its colour.
    var bandSlot: Int?
    var outOfRangeBuckets: Set<Int> = []
    /// Slots of writers with a provisional value in view.
    var provisionalWriters: [Int] = []
    /// Buckets holding a day a live update just changed.
    var changedBuckets: Set<Int> = []
    /// The lowest and highest value drawn (points, whiskers when shown, means, band, context).
    var range: (min: Double, max: Double)?
    /// Each writer's line is its 7-day mean (`Line.mean`), the daily values dots.
    private(set) var showsMean = false
    /// Whiskers are drawn: asked for, and at week or month zoom (a day has no spread).
    private(set) var whiskers = false

    var hasContext: Bool { context.contains { !$0.isEmpty } }
    var isEmpty: Bool { lines.allSatisfy(\.points.isEmpty) && !hasContext }

    struct Options: Equatable {
        var aggregation: Aggregation = .latest
        var hidden: Set<WriterKey> = []
        var showContext = false
        var changedDays: Set<LocalDay> = []
        var showMean = false
        var showWhiskers = false
        /// The writer whose usual range is drawn; nil: none.
        var bandWriter: Int?
    }

    init(_ index: DashboardIndex, window: ChartWindow, options o: Options) {
        let zoom = window.zoom
        let from = window.firstDay, to = window.lastDay
        for day in o.changedDays where day >= from && day <= to { changedBuckets.insert(zoom.bucket(of: day)) }
        whiskers = o.showWhiskers && zoom != .day
        showsMean = o.showMean

        var buckets = BucketCursor(zoom)
        for w in index.writers.indices where !o.hidden.contains(index.writers[w].key) {
            let list = index.values(writer: w, aggregation: o.aggregation)
            var line = Line(writer: w, slot: index.slots[w])
            var days: [(day: LocalDay, bpm: Double, provisional: Bool)] = []
            var i = index.firstIndex(writer: w, onOrAfter: from, aggregation: o.aggregation)
            while i < list.count && list[i].day <= to {
                let value = list[i]
                if value.outOfRange > 0 { outOfRangeBuckets.insert(buckets.bucket(of: value.day)) }
                if let bpm = ChartedValue.bpm(value) { days.append((value.day, bpm, value.provisional)) }
                i += 1
            }
            line.points = Self.buckets(days, zoom: zoom)
            if line.points.contains(where: \.provisional) { provisionalWriters.append(line.slot) }
            if o.showMean {
                line.mean = Self.buckets(RollingMean.series(list, from: from, to: to).map { ($0.day, $0.bpm, false) },
                                         zoom: zoom)
            }
            for p in line.points { include(whiskers ? p.low : p.bpm, whiskers ? p.high : p.bpm) }
            // The scale holds the writer's values all over the store at this zoom, not only the window's.
            if let all = index.chartRange(writer: w, aggregation: o.aggregation, zoom: zoom, spread: whiskers) {
                include(all.lowerBound, all.upperBound)
            }
            for p in line.mean { include(p.bpm, p.bpm) }
            lines.append(line)
        }

        if let w = o.bandWriter, index.writers.indices.contains(w) {
            bandWriter = w
            bandSlot = index.slots[w]
            let daily = UsualRange.series(index.values(writer: w, aggregation: o.aggregation), from: from, to: to)
            // Each edge bucketed as a line is: the median of its days.
            func edge(_ value: KeyPath<UsualRange.Day, Double>) -> [Point] {
                Self.buckets(daily.map { ($0.day, $0[keyPath: value], false) }, zoom: zoom)
            }
            for (l, u) in zip(edge(\.lower), edge(\.upper)) {
                band.append(BandPoint(bucket: l.bucket, lower: l.bpm, upper: u.bpm))
                include(l.bpm, u.bpm)
            }
        }

        if o.showContext {
            for c in index.contextWriters.indices {
                let list = index.sedentaryMinima(contextWriter: c)
                var i = index.firstSedentaryIndex(contextWriter: c, onOrAfter: from)
                var days: [(day: LocalDay, bpm: Double, provisional: Bool)] = []
                while i < list.count && list[i].day <= to {
                    if list[i].bpm.isFinite { days.append((list[i].day, list[i].bpm, false)) }
                    i += 1
                }
                let points = Self.buckets(days, zoom: zoom)
                for p in points { include(p.bpm, p.bpm) }
                if let all = index.chartRange(contextWriter: c, zoom: zoom) { include(all.lowerBound, all.upperBound) }
                context.append(points)
            }
        }
    }

    private mutating func include(_ low: Double, _ high: Double) {
        range = range.map { (min($0.min, low), max($0.max, high)) } ?? (low, high)
    }

    /// Daily values (sorted by day) as one point per bucket: the median, the min and max, provisional when
    /// one of its days is.
    static func buckets(_ days: [(day: LocalDay, bpm: Double, provisional: Bool)], zoom: Zoom) -> [Point] {
        var points: [Point] = []
        var values: [Double] = []
        var cursor = BucketCursor(zoom)
        var start = 0
        while start < days.count {
            let bucket = cursor.bucket(of: days[start].day)
            var end = start
            var provisional = false
            values.removeAll(keepingCapacity: true)
            while end < days.count && cursor.bucket(of: days[end].day) == bucket {
                values.append(days[end].bpm)
                provisional = provisional || days[end].provisional
                end += 1
            }
            let low = values.min()!, high = values.max()!
            points.append(Point(bucket: bucket, bpm: median(&values), low: low, high: high, provisional: provisional))
            start = end
        }
        return points
    }

    /// The median; the mean of the middle two for an even count.
    static func median(_ values: inout [Double]) -> Double {
        if values.count == 1 { return values[0] }
        values.sort()
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }
}
