import RHRCore

/// What the dashboard says of each resting writer beside its values (docs/design.md section 9): what its number is in
/// its maker's words (R15), whether it is Apple's own estimate, and when it last delivered and how late after its day
/// a value usually comes. Worked out once per load from the history the dashboard holds, so a key press only reads it.
struct WriterFacts: Sendable {
    var derivation: Derivation
    /// The store's mark (R3): the registry's Apple entry, and the "HealthKit estimate" label.
    var isAppleWatch: Bool
    var lateness: WriterLateness

    /// One per writer, in `writers` order: the derivation over the devices its values came from, its lateness over
    /// every road's copies.
    static func of(_ data: DashboardData, writers: [Writer]) -> [WriterFacts] {
        var values: [WriterKey: [DaySample]] = [:]
        var devices: [WriterKey: Set<Device?>] = [:]
        for s in data.samples {
            values[s.sample.writer.key, default: []].append(s)
            devices[s.sample.writer.key, default: []].insert(s.sample.device)
        }
        return writers.map { writer in
            let isWatch = data.watchWriters.contains(writer.key)
            return WriterFacts(derivation: Derivation.of(writer: writer, devices: devices[writer.key] ?? [], isAppleWatch: isWatch),
                               isAppleWatch: isWatch, lateness: WriterLateness(writer: writer, values: values[writer.key] ?? []))
        }
    }

    /// The header's notes for writers whose resting values stopped on a phone feed that still delivers heart rate
    /// (`WriterStop`), by feed and writer. A feed whose resting values all stopped has its own note (`FeedNotices`).
    static func stops(_ data: DashboardData) -> [WriterStop] {
        var stops: [WriterStop] = []
        for stream in data.streams {
            guard let feed = FeedFreshness(stream), !feed.restingStopped, let heartRate = feed.newestHeartRateDay else { continue }
            let carried = data.samples.filter { $0.stream == stream.stream && $0.sample.store == stream.store }
            let writers = Set(carried.map(\.sample.writer)).sorted()
            for writer in writers {
                let lateness = WriterLateness(writer: writer, values: carried)
                if let stop = WriterStop(lateness, stream: stream.stream, heartRateThrough: heartRate) { stops.append(stop) }
            }
        }
        return stops
    }
}
