import RHRCore

/// A live update without reading ten years again: the index with some days replaced by a fresh read of
/// them, the same as a full read would give (tests compare the two), or nil when that cannot be worked out
/// from here and the store must be read in full.
extension DashboardIndex {
    public struct Patch: Sendable {
        public let index: DashboardIndex
        /// The days whose samples, revisions or heart rate differ from before: what the dashboard marks.
        public let changedDays: Set<LocalDay>
    }

    /// This index with `delta`'s days replaced, standing for the store at `revision` (when the index is not
    /// newer already). Nil when only a full read can be exact:
    /// - the index holds only the most recent days (the history is still being read);
    /// - a stream is new, or two streams of a store changed their order by `asOf`: which road last delivered a
    ///   sample (its `asOf`, R3) may then change on any day, and only the store knows which roads did;
    /// - a writer's details (app name, bundle id) changed: every day shows them.
    /// A stream that only moved on (the usual live push) is handled: its samples on other days get its new
    /// `asOf`, as a full read would give them.
    public func patched(with delta: DashboardDelta, revision: Int64) -> Patch? {
        guard !data.isPartial, let advanced = Self.advancedStreams(from: data.streams, to: delta.streams) else { return nil }
        var rank: [WriterKey: Int] = [:]
        for (i, w) in writers.enumerated() { rank[w.key] = i }
        // Every writer the index shows, resting or heart rate, as the store described it.
        var known: [WriterKey: Writer] = [:]
        for w in writers + data.contents.flatMap({ $0.restingWriters + $0.heartRateWriters }) { known[w.key] = w }
        for w in delta.samples.map(\.sample.writer) + delta.heartRateDays.map(\.writer) {
            if let was = known[w.key], !Self.sameDetails(was, w) { return nil }
        }
        let newWriter = delta.samples.contains { rank[$0.sample.writer.key] == nil }
        let days = delta.days
        guard let firstDay = days.min(), let lastDay = days.max() else { return nil }

        // Samples are ordered by day: the days before and after the delta's are copied whole, the stretch
        // between merged with the fresh ones (in index order).
        let old = data.samples
        let lo = Self.lowerBound(old.count) { old[$0].day < firstDay }
        let hi = Self.lowerBound(old.count) { old[$0].day <= lastDay }
        var fresh = delta.samples
        if !newWriter {
            fresh.sort { DaySeries.precedes($0, rank[$0.sample.writer.key]!, $1, rank[$1.sample.writer.key]!) }
        }
        var samples = Array(old[..<lo])
        samples.reserveCapacity(old.count + fresh.count)
        var j = 0
        for i in lo..<hi where !days.contains(old[i].day) {
            while j < fresh.count && fresh[j].day < old[i].day {
                samples.append(fresh[j])
                j += 1
            }
            samples.append(old[i])
        }
        samples += fresh[j...]
        samples += old[hi...]
        // A stream that moved on: its samples on the other days take its new `asOf`, and their values are
        // aggregated again (a value's `asOf` is its samples').
        var refreshed: Set<LocalDay> = []
        // The writers whose values came, went or were read again: their facts and lateness are worked out anew.
        var touched = Set(fresh.map(\.sample.writer.key))
        for (stream, asOf) in advanced {
            // Names compare quickly; most samples belong to another road.
            // A snapshot's asOf never moves (R12): only the live road's samples follow its stream.
            for i in samples.indices where !samples[i].snapshot && samples[i].stream == stream.name && samples[i].sample.store == stream.store
                && (samples[i].day < firstDay || samples[i].day > lastDay || !days.contains(samples[i].day)) {
                samples[i].asOf = asOf
                refreshed.insert(samples[i].day)
                touched.insert(samples[i].sample.writer.key)
            }
        }

        var next = data
        next.samples = samples
        next.revisions = Self.merge(data.revisions.filter { !days.contains($0.day) }, delta.revisions) { $0.at < $1.at }
        // Heart-rate days are ordered by day and writer: the same splice.
        let heartRate = data.heartRateDays
        let hlo = Self.lowerBound(heartRate.count) { heartRate[$0].day < firstDay }
        let hhi = Self.lowerBound(heartRate.count) { heartRate[$0].day <= lastDay }
        let freshHeartRate = delta.heartRateDays.sorted { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
        next.heartRateDays = Array(heartRate[..<hlo])
            + Self.merge(heartRate[hlo..<hhi].filter { !days.contains($0.day) }, freshHeartRate) {
                ($0.day, $0.writer.key) < ($1.day, $1.writer.key)
            }
            + heartRate[hhi...]
        next.streams = delta.streams
        if let numbers = delta.writerNumbers { next.writerNumbers = numbers }
        if let watches = delta.watchWriters { next.watchWriters = watches }
        next.revision = max(data.revision, revision)

        if newWriter {
            // Writers are numbered by name: a new one renumbers them all. Prepare everything again, in memory.
            next.contents = delta.contents ?? StoreContents.tally(samples: samples, heartRate: next.heartRateDays)
            let index = DashboardIndex(next)
            return Patch(index: index, changedDays: index.changedDays(comparedTo: self, on: days))
        }

        // Day ranges, and the values of the days read again or refreshed aggregated anew.
        var dayRanges: [LocalDay: Range<Int>] = [:]
        dayRanges.reserveCapacity(self.dayRanges.count + days.count)
        var start = 0
        while start < samples.count {
            var end = start + 1
            while end < samples.count && samples[end].day == samples[start].day { end += 1 }
            dayRanges[samples[start].day] = start..<end
            start = end
        }
        let redo = days.union(refreshed)
        var values = Aggregation.allCases.map { _ in Array(repeating: [DayValue](), count: writers.count) }
        for day in redo.sorted() {
            guard let range = dayRanges[day] else { continue }
            var s = range.lowerBound
            while s < range.upperBound {
                let w = rank[samples[s].sample.writer.key]!
                var e = s + 1
                while e < range.upperBound && rank[samples[e].sample.writer.key]! == w { e += 1 }
                for a in values.indices {
                    if let value = DaySeries.aggregate(samples[s..<e], by: Aggregation.allCases[a]) { values[a][w].append(value) }
                }
                s = e
            }
        }
        var series = self.series
        for a in series.indices {
            for w in series[a].indices {
                series[a][w] = Self.replacing(days: redo, in: series[a][w], with: values[a][w])
            }
        }
        if series[0].contains(where: \.isEmpty) {
            // A writer's last sample is gone: writers are numbered again.
            next.contents = delta.contents ?? StoreContents.tally(samples: samples, heartRate: next.heartRateDays)
            let index = DashboardIndex(next)
            return Patch(index: index, changedDays: index.changedDays(comparedTo: self, on: days))
        }
        var revisionsByDay = self.revisionsByDay
        var heartRateByDay = self.heartRateByDay
        var heartRateChanged = false
        let freshHeartRateByDay = Dictionary(grouping: freshHeartRate, by: \.day)
        for day in days {
            revisionsByDay[day] = nil
            if heartRateByDay[day] ?? [] != freshHeartRateByDay[day] ?? [] { heartRateChanged = true }
            heartRateByDay[day] = freshHeartRateByDay[day]
        }
        // What the store holds: the same writers (else the index was built anew above), their samples counted
        // again on the days read; the heart rate counted again only when it changed.
        if let contents = delta.contents {
            next.contents = contents
        } else {
            // The samples that stand (R12), as the store counts them: a copy of a road that does not decide its day
            // is not counted.
            let added = StoreContents.tally(samples: fresh, heartRate: [])
            let removed = StoreContents.tally(samples: (lo..<hi).filter { days.contains(old[$0].day) }.map { old[$0] }, heartRate: [])
            var counts = Dictionary(uniqueKeysWithValues: HealthStore.allCases.map { ($0, 0) })
            for c in added { counts[c.store]! += c.restingSamples }
            for c in removed { counts[c.store]! -= c.restingSamples }
            let heartRate = heartRateChanged ? StoreContents.tally(samples: [], heartRate: next.heartRateDays) : data.contents
            next.contents = data.contents.map { was in
                var c = was
                c.restingSamples += counts[c.store] ?? 0
                if let h = heartRate.first(where: { $0.store == c.store }) {
                    c.heartRateSamples = h.heartRateSamples
                    c.heartRateWriters = h.heartRateWriters
                }
                return c
            }
        }
        for (day, list) in Dictionary(grouping: delta.revisions, by: \.day) { revisionsByDay[day] = list }
        // The untouched writers' facts stand (a new watch mark may change anyone's derivation), and so does what is
        // known of their lateness.
        for i in lo..<hi where days.contains(old[i].day) { touched.insert(old[i].sample.writer.key) }
        let facts = next.watchWriters == data.watchWriters
            ? WriterFacts.of(next, writers: writers, keeping: self.facts, except: touched) : nil
        let index = DashboardIndex(data: next, writers: writers, series: series, dayRanges: dayRanges,
                                   revisionsByDay: revisionsByDay, heartRateByDay: heartRateByDay,
                                   context: heartRateChanged ? nil : (contextWriters, sedentary), facts: facts,
                                   lateness: latenessMemo.keeping(allBut: touched))
        return Patch(index: index, changedDays: index.changedDays(comparedTo: self, on: days))
    }

    /// Of `days` (all days of both when nil), those whose samples, revisions or heart rate differ between
    /// this index and `other`. When a sample was read (its `asOf`) and by which road do not count: they move
    /// on with every sync without any value changing.
    public func changedDays(comparedTo other: DashboardIndex, on days: Set<LocalDay>? = nil) -> Set<LocalDay> {
        let candidates = days ?? Set(dayRanges.keys).union(other.dayRanges.keys)
            .union(revisionsByDay.keys).union(other.revisionsByDay.keys)
            .union(heartRateByDay.keys).union(other.heartRateByDay.keys)
        return candidates.filter { day in
            let a = samples(on: day), b = other.samples(on: day)
            if a.count != b.count { return true }
            for (x, y) in zip(a, b) where x.sample != y.sample || x.provisional != y.provisional
                || x.offsetAssumed != y.offsetAssumed {
                return true
            }
            return revisions(on: day) != other.revisions(on: day) || heartRate(on: day) != other.heartRate(on: day)
        }
    }

    /// A stream by store and name: `DaySample.stream` names the road within the sample's store.
    struct StreamKey: Hashable {
        var store: HealthStore
        var name: String
    }

    /// The streams whose `asOf` moved on, with the new one; nil when the streams changed in a way a patch
    /// cannot follow (one is new or gone, or two of a store changed their order by `asOf`: the newest road of
    /// a sample is decided by that order, ties included).
    static func advancedStreams(from old: [StreamState], to new: [StreamState]) -> [StreamKey: Timestamp]? {
        func map(_ list: [StreamState]) -> [StreamKey: Timestamp?] {
            var m: [StreamKey: Timestamp?] = [:]
            for s in list { m[StreamKey(store: s.store, name: s.stream)] = s.asOf }
            return m
        }
        let before = map(old), after = map(new)
        guard before.count == after.count, before.keys.allSatisfy({ after[$0] != nil }) else { return nil }
        func order(_ a: Timestamp?, _ b: Timestamp?) -> Int {
            let x = a?.epochSeconds ?? -.infinity, y = b?.epochSeconds ?? -.infinity
            return x < y ? -1 : (x > y ? 1 : 0)
        }
        let keys = Array(before.keys)
        for (n, a) in keys.enumerated() {
            for b in keys[(n + 1)...] where a.store == b.store {
                if order(before[a]!, before[b]!) != order(after[a]!, after[b]!) { return nil }
            }
        }
        var advanced: [StreamKey: Timestamp] = [:]
        for key in keys {
            let was = before[key]!, now = after[key]!
            if was != now {
                guard let now else { return nil }
                advanced[key] = now
            }
        }
        return advanced
    }

    /// Writers compare by store and name; the rest is what the screen shows of them too.
    static func sameDetails(_ a: Writer, _ b: Writer) -> Bool {
        a.appName == b.appName && a.bundleIdentifier == b.bundleIdentifier && a.productType == b.productType
    }

    /// Two sorted lists as one, `a`'s first where they tie.
    static func merge<T>(_ a: [T], _ b: [T], by isBefore: (T, T) -> Bool) -> [T] {
        if b.isEmpty { return a }
        var out: [T] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j < b.count && (i == a.count || isBefore(b[j], a[i])) {
                out.append(b[j])
                j += 1
            } else {
                out.append(a[i])
                i += 1
            }
        }
        return out
    }

    /// A writer's values with those of `days` replaced by `fresh` (sorted by day). Untouched lists are
    /// returned as they are, sharing their storage.
    static func replacing(days: Set<LocalDay>, in list: [DayValue], with fresh: [DayValue]) -> [DayValue] {
        guard let first = days.min(), let last = days.max() else { return list }
        let lo = lowerBound(list.count) { list[$0].day < first }
        let hi = lowerBound(list.count) { list[$0].day <= last }
        let touched = list[lo..<hi].contains { days.contains($0.day) }
        if !touched && fresh.isEmpty { return list }
        var out = Array(list[..<lo])
        out.reserveCapacity(list.count + fresh.count)
        out += merge(list[lo..<hi].filter { !days.contains($0.day) }, fresh) { $0.day < $1.day }
        out += list[hi...]
        return out
    }
}
