/// What rhr knows of one road data arrives by: a (store, stream) pair such as (healthkit, iphone) or
/// (healthconnect, health-connect-export). The header's "HealthKit as of 12 Mar 21:00" comes from here.
public struct StreamState: Sendable, Hashable {
    public var store: HealthStore
    public var stream: String
    /// The opaque cursor of the last batch applied.
    public var cursor: String?
    /// When the stream's newest data was read (R3): the newest `asOf` applied.
    public var asOf: Timestamp?
    /// The origin of the last batch applied: "export of 14 Mar", a file name.
    public var origin: String
    /// Health Connect permissions the feed last reported (R10), when it did.
    public var grantedPermissions: [String]?
    /// The store revision at which this stream last changed something.
    public var revision: Int64
    /// For a phone feed (`FeedFreshness.app(of:)`): the newest local day of a resting value, and of heart rate, it delivered
    /// (`FeedFreshness`); nil for other streams, and when it delivered none.
    public var newestRestingDay: LocalDay?
    public var newestHeartRateDay: LocalDay?
    /// Health Connect's own app priority for vitals, as the newest export of this stream that kept it gave it.
    public var appPriority: AppPriority?

    public init(store: HealthStore, stream: String, cursor: String? = nil, asOf: Timestamp? = nil, origin: String = "",
                grantedPermissions: [String]? = nil, revision: Int64 = 0, newestRestingDay: LocalDay? = nil,
                newestHeartRateDay: LocalDay? = nil, appPriority: AppPriority? = nil) {
        self.store = store
        self.stream = stream
        self.cursor = cursor
        self.asOf = asOf
        self.origin = origin
        self.grantedPermissions = grantedPermissions
        self.revision = revision
        self.newestRestingDay = newestRestingDay
        self.newestHeartRateDay = newestHeartRateDay
        self.appPriority = appPriority
    }

    /// R10: the limits its permissions set, for Health Connect feeds that reported them.
    public var permissionLimits: [PermissionLimit] {
        guard store == .healthConnect, let grantedPermissions else { return [] }
        return PermissionLimit.limits(granted: grantedPermissions)
    }

    /// R10's notes on the feed, the one set `rhr summary`, `rhr status` and the dashboard's notes show: what its
    /// permissions leave out, then, given `today`, a changes token left unused past its lifetime.
    public func permissionNotes(today: LocalDay?) -> [String] {
        permissionLimits.map(\.words)
            + (today.flatMap(changesTokenIdleDays).map { [PermissionLimit.changesTokenWords(idleDays: $0)] } ?? [])
    }

    /// "Health Connect (bridge-pixel)": the feed as a note names it.
    public var noteName: String { "\(store.displayName) (\(stream))" }

    /// R10: days since a Health Connect feed that holds a changes token last read, when that is longer than the
    /// 30 days a token lives unused (relative to `today`); nil for other streams and recent reads.
    public func changesTokenIdleDays(today: LocalDay) -> Int? {
        guard store == .healthConnect, cursor != nil, let asOf else { return nil }
        let idle = asOf.localDay.distance(to: today)
        return idle > PermissionLimit.changesTokenLifetimeDays ? idle : nil
    }
}
