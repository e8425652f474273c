/// How current a phone feed is (docs/design.md section 4b): when it last delivered, and whether resting values
/// stopped arriving while heart rate still does.
///
/// The trap this names: Apple Watch writes a day's resting estimate hours after the time it carries, so an
/// automation that sends only what is new "since the last sync" never carries it, while heart rate keeps
/// arriving; HC Webhook's incremental runs miss records written late the same way. The cure is on the phone:
/// re-send a period that reaches back a day.
public struct FeedFreshness: Sendable, Hashable {
    /// The app a feed comes from, by what its stream was last fed.
    public enum App: Sendable, Hashable {
        case healthAutoExport
        case hcWebhook
        /// Sync batches over HTTP, from a bridge.
        case other
    }

    public var store: HealthStore
    public var stream: String
    public var app: App
    /// When the phone last delivered (over HTTP, the time the daemon received it).
    public var lastDelivery: Timestamp?
    public var newestRestingDay, newestHeartRateDay: LocalDay?

    /// Heart rate may lead resting values by one day (today's estimate is not written yet); by two days or more,
    /// or with no resting value at all, resting values have stopped arriving.
    public static let allowedLagDays = 1

    /// The freshness of `stream`; nil for a stream that is not a phone feed (an Apple Health or Health Connect export,
    /// a bridge over the socket). A Health Auto Export or HC Webhook file is one, however it came in.
    public init?(_ stream: StreamState) {
        guard let app = FeedFreshness.app(of: stream) else { return nil }
        self.store = stream.store
        self.stream = stream.stream
        self.app = app
        lastDelivery = stream.asOf
        newestRestingDay = stream.newestRestingDay
        newestHeartRateDay = stream.newestHeartRateDay
    }

    /// Phone feeds: the HTTP streams (`http-NAME`), and the files Health Auto Export or HC Webhook write to a
    /// watched folder, which have the same trap.
    public static func app(of stream: StreamState) -> App? {
        if stream.origin.hasPrefix(healthAutoExportOrigin) { return .healthAutoExport }
        if stream.origin.hasPrefix(hcWebhookOrigin) { return .hcWebhook }
        return isOverHTTP(stream.stream) ? .other : nil
    }

    /// How the readers and the daemon begin a phone feed's origin, which `app(of:)` reads back.
    public static let healthAutoExportOrigin = "Health Auto Export"
    public static let hcWebhookOrigin = "HC Webhook"

    /// A stream phones feed over HTTP: `http-` and its token's name.
    public static func isOverHTTP(_ stream: String) -> Bool { stream.hasPrefix(httpStreamPrefix) }
    public static let httpStreamPrefix = "http-"

    /// Fed over HTTP: its "as of" is when the daemon received its last request.
    public var overHTTP: Bool { FeedFreshness.isOverHTTP(stream) }

    /// Resting values stopped arriving while heart rate still does.
    public var restingStopped: Bool {
        FeedFreshness.restingStopped(newestResting: newestRestingDay, newestHeartRate: newestHeartRateDay,
                                     allowedLagDays: FeedFreshness.allowedLagDays)
    }

    /// The rule, for a feed or one writer of it (`WriterStop`): resting values stopped when heart rate leads the newest
    /// resting day by more than `allowedLagDays`, or arrives with no resting value at all; without heart rate there is
    /// nothing to compare with.
    public static func restingStopped(newestResting: LocalDay?, newestHeartRate: LocalDay?, allowedLagDays: Int) -> Bool {
        guard let heartRate = newestHeartRate else { return false }
        guard let resting = newestResting else { return true }
        return resting.distance(to: heartRate) > allowedLagDays
    }

    /// "resting values through 27 Nov, heart rate through 30 Nov".
    public func throughWords(thisYear: Int) -> String {
        let resting = newestRestingDay.map { "resting values through \($0.text(thisYear: thisYear))" } ?? "no resting values"
        let heartRate = newestHeartRateDay.map { "heart rate through \($0.text(thisYear: thisYear))" } ?? "no heart rate"
        return "\(resting), \(heartRate)"
    }

    /// What to change on the phone so the late resting value is sent again.
    public var phoneAdvice: String {
        switch app {
        case .healthAutoExport:
            return "in Health Auto Export, set the automation's period to Default (the previous day and today), "
                + "not Since Last Sync, and keep Resting Heart Rate among its metrics"
        case .hcWebhook:
            return "in HC Webhook, turn on the 48-hour look-back and keep Resting Heart Rate among the data types"
        case .other:
            return "have the phone send the previous day again with every delivery"
        }
    }

    /// The note when resting values stopped arriving; nil while they arrive.
    public var stoppedWords: String? {
        guard restingStopped, let heartRate = newestHeartRateDay else { return nil }
        let resting = newestRestingDay.map { "resting values stopped after \($0.shortText)" } ?? "no resting values arrive"
        return "\(stream) (\(store.displayName)): \(resting), while heart rate arrives through \(heartRate.shortText); "
            + "\(phoneAdvice)."
    }
}
