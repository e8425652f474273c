import RHRCore

/// What the dashboard says of each resting writer beside its values (docs/design.md section 9): what its number is in
/// its maker's words (R15) and whether it is Apple's own estimate. Worked out once per load from the history the
/// dashboard holds, and kept by a live update for the writers it did not touch, so a key press only reads it; how
/// late the writer's values come is worked out when first shown (`WriterLatenessMemo`).
struct WriterFacts: Sendable, Equatable {
    var derivation: Derivation
    /// The store's mark (R3): the registry's Apple entry, and the "HealthKit estimate" label.
    var isAppleWatch: Bool

    /// One per writer, in `writers` order: the derivation over the devices its values came from.
    static func of(_ data: DashboardData, writers: [Writer]) -> [WriterFacts] {
        var devices: [WriterKey: Set<Device?>] = [:]
        let wanted = Set(writers.map(\.key))
        for s in data.samples where wanted.contains(s.sample.writer.key) {
            devices[s.sample.writer.key, default: []].insert(s.sample.device)
        }
        return writers.map { writer in
            let isWatch = data.watchWriters.contains(writer.key)
            return WriterFacts(derivation: Derivation.of(writer: writer, devices: devices[writer.key] ?? [], isAppleWatch: isWatch),
                               isAppleWatch: isWatch)
        }
    }

    /// `facts` (of `writers`, before a live update) with those of the writers in `changed` worked out again from
    /// `data`: a push touches a writer or two of ten years, and the others' facts are what they were.
    static func of(_ data: DashboardData, writers: [Writer], keeping facts: [WriterFacts],
                   except changed: Set<WriterKey>) -> [WriterFacts] {
        let again = writers.filter { changed.contains($0.key) }
        let fresh = Dictionary(uniqueKeysWithValues: zip(again.map(\.key), of(data, writers: again)))
        return writers.indices.map { fresh[writers[$0].key] ?? facts[$0] }
    }

    /// The header's notes for writers whose resting values stopped on a phone feed that still delivers heart rate
    /// (`WriterStop`), by feed and writer. A feed whose resting values all stopped has its own note (`FeedNotices`).
    static func stops(_ data: DashboardData) -> [WriterStop] {
        var stops: [WriterStop] = []
        for stream in data.streams {
            guard let feed = FeedFreshness(stream), !feed.restingStopped, let heartRate = feed.newestHeartRateDay else { continue }
            // One pass over the history: each writer's lateness over its own values on this feed.
            let carried = Dictionary(grouping: data.samples.lazy.filter { $0.stream == stream.stream && $0.sample.store == stream.store },
                                     by: \.sample.writer)
            for (writer, values) in carried.sorted(by: { $0.key < $1.key }) {
                let lateness = WriterLateness(writer: writer, values: values)
                if let stop = WriterStop(lateness, stream: stream.stream, heartRateThrough: heartRate) { stops.append(stop) }
            }
        }
        return stops
    }
}
