import RHRCore

/// The phone feeds under the header (docs/design.md section 4b): when each HTTP feed last delivered, and a feed
/// whose resting values stopped arriving while its heart rate still does, with what to change on the phone.
enum FeedNotices {
    static func notes(_ streams: [StreamState], today: LocalDay) -> [String] {
        let feeds = streams.compactMap(FeedFreshness.init)
        var notes: [String] = []
        let http = feeds.filter { $0.stream.hasPrefix("http-") }
        if !http.isEmpty {
            notes.append("Phone feeds: " + http.map { feed in
                "\(feed.stream) delivered " + (feed.lastDelivery.map { DayText.recent($0, today: today) } ?? "nothing yet")
            }.joined(separator: " · "))
        }
        return notes + feeds.compactMap(\.stoppedWords)
    }
}
