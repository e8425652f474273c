import Foundation
import Synchronization

/// R5: which local day a value belongs to.
public enum LocalDayRule {
    /// HealthKit: the local date of the window's midpoint, in the zone named by `HKTimeZone` when it is
    /// present and known, else in the offset written with the dates. The midpoint keeps an all-day window
    /// on its day even though export files write dates with the phone's offset at export time.
    public static func healthKit(start: Date, end: Date, writtenOffset: Int, timeZone: TimeZone?) -> LocalDay {
        let a = start.timeIntervalSince1970
        let b = end.timeIntervalSince1970
        let midpoint = a + (max(a, b) - a) / 2
        let offset = timeZone?.secondsFromGMT(for: Date(timeIntervalSince1970: midpoint)) ?? writtenOffset
        return LocalDay(epochSeconds: midpoint, offsetSeconds: offset)
    }

    /// Health Connect: the local date of `time` in the record's `zoneOffset`. When the offset is null
    /// the machine's offset is assumed, as Health Connect itself does, and the value is flagged.
    public static func healthConnect(time: Date, zoneOffset: Int?, machineZone: TimeZone) -> (day: LocalDay, offsetAssumed: Bool) {
        if let zoneOffset {
            return (LocalDay(epochSeconds: time.timeIntervalSince1970, offsetSeconds: zoneOffset), false)
        }
        let assumed = machineZone.secondsFromGMT(for: time)
        return (LocalDay(epochSeconds: time.timeIntervalSince1970, offsetSeconds: assumed), true)
    }

    /// The day of any sample by its store's rule.
    public static func day(of sample: RestingSample, machineZone: TimeZone) -> (day: LocalDay, offsetAssumed: Bool) {
        switch sample.store {
        case .healthKit:
            let zone = sample.timeZoneIdentifier.flatMap(ZoneNames.zone)
            if sample.offsetSeconds == nil && zone == nil {
                // Every reader gives an offset; should none come, the window's midpoint still decides, in the
                // machine's zone, flagged as for Health Connect.
                return (healthKit(start: sample.start, end: sample.end, writtenOffset: 0, timeZone: machineZone), true)
            }
            return (healthKit(start: sample.start, end: sample.end, writtenOffset: sample.offsetSeconds ?? 0,
                              timeZone: zone), false)
        case .healthConnect:
            return healthConnect(time: sample.start, zoneOffset: sample.offsetSeconds, machineZone: machineZone)
        }
    }
}

/// Looks up IANA zone names once each; Foundation's lookup reads tzdata.
public enum ZoneNames {
    private static let cache = Mutex<[String: TimeZone?]>([:])

    public static func zone(_ identifier: String) -> TimeZone? {
        cache.withLock { zones in
            if let known = zones[identifier] { return known }
            let zone = TimeZone(identifier: identifier)
            zones[identifier] = zone
            return zone
        }
    }
}
