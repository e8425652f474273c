import Foundation
import RHRCore

/// The machine's clock: the one place rhr asks what time and what day it is (the core is given both, never reads
/// them). `zone` is the machine's zone (R5): the process's unless a command's `TZ` says otherwise.
public enum MachineClock {
    /// Now, at `zone`'s offset at this moment.
    public static func now(in zone: TimeZone = .current) -> Timestamp {
        Timestamp(date: Date(), offsetSeconds: 0).at(zone)
    }

    /// The local day it is now in `zone`.
    public static func today(in zone: TimeZone = .current) -> LocalDay {
        now(in: zone).localDay
    }
}
