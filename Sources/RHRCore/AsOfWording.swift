import Foundation

/// R3's "as of": when data was read, as every reader says it ("HealthKit as of 14 Mar 21:00 +01:00"): `rhr summary`'s
/// currency line, the dashboard's header, help and detail pane, and the empty state. Times are in the machine's
/// clock: each phone's own offset could set two stores read at one instant an hour apart.
public enum AsOfWording {
    public static let words = "as of"

    /// "as of 14 Mar 21:00 +01:00" (the year when not `thisYear`); `offset: false` leaves the offset out, for a line
    /// that says it once.
    public static func phrase(_ t: Timestamp, thisYear: Int, offset: Bool = true) -> String {
        "\(words) \(t.text(thisYear: thisYear, offset: offset))"
    }

    /// "as of 2026-03-14T21:00:00+01:00", "as of never": the exact form `rhr status` and the daemon's status print.
    public static func exact(_ t: Timestamp?) -> String { "\(words) \(t?.iso8601 ?? "never")" }

    /// "HealthKit as of 14 Mar 21:00 +01:00".
    public static func line(_ store: HealthStore, _ t: Timestamp, thisYear: Int) -> String {
        "\(store.displayName) \(phrase(t, thisYear: thisYear))"
    }

    /// The newest read of each store among `streams`, in `zone`, by store: what the currency line says.
    public static func newest(_ streams: [StreamState], zone: TimeZone) -> [(store: HealthStore, asOf: Timestamp)] {
        var newest: [HealthStore: Timestamp] = [:]
        for stream in streams {
            guard let t = stream.asOf else { continue }
            if newest[stream.store].map({ t.epochSeconds > $0.epochSeconds }) ?? true { newest[stream.store] = t }
        }
        return newest.sorted { $0.key < $1.key }.map { (store: $0.key, asOf: $0.value.at(zone)) }
    }

    /// "HealthKit as of 14 Mar 21:00 +01:00 · Health Connect as of 21 Mar 09:00 +01:00" (HealthKit first), nil
    /// without any read.
    public static func currency(_ streams: [StreamState], thisYear: Int, zone: TimeZone, dot: String = "·") -> String? {
        let newest = Dictionary(newest(streams, zone: zone).map { ($0.store, $0.asOf) }) { a, _ in a }
        let parts = HealthStore.allCases.compactMap { s in newest[s].map { line(s, $0, thisYear: thisYear) } }
        return parts.isEmpty ? nil : parts.joined(separator: " \(dot) ")
    }
}
