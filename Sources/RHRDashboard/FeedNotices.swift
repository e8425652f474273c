import Foundation
import RHRCore

/// The phone feeds under the header (docs/design.md section 4b): when each HTTP feed last delivered, and a feed
/// whose resting values stopped arriving while its heart rate still does, with what to change on the phone.
enum FeedNotices {
    /// Delivery times in `zone`, the machine's clock, whatever offset each phone wrote.
    static func notes(_ streams: [StreamState], today: LocalDay, zone: TimeZone) -> [String] {
        let feeds = streams.compactMap(FeedFreshness.init)
        var notes: [String] = []
        let http = feeds.filter(\.overHTTP)
        if !http.isEmpty {
            notes.append("Phone feeds, last delivered: " + http.map { feed in
                "\(feed.stream) " + (feed.lastDelivery.map { DayText.recent($0.at(zone), today: today) } ?? "never")
                    + " (\(feed.store.displayName))"
            }.joined(separator: " · "))
        }
        return notes + feeds.compactMap(\.stoppedWords)
    }
}
