/// R10: what a Health Connect live feed's permissions mean for the data shown.
public enum PermissionLimit: Sendable, Hashable {
    /// Without READ_HEALTH_DATA_HISTORY reads reach only 30 days before the first grant.
    case historyLimited
    /// Without READ_HEALTH_DATA_IN_BACKGROUND there are no background reads.
    case noBackgroundReads
    /// Without the resting heart rate read permission the feed cannot see resting values at all.
    case noRestingPermission

    public var words: String {
        switch self {
        case .historyLimited:
            return "without READ_HEALTH_DATA_HISTORY, Health Connect reads reach only 30 days before the first grant"
        case .noBackgroundReads:
            return "without READ_HEALTH_DATA_IN_BACKGROUND, values arrive only while the bridge app is open"
        case .noRestingPermission:
            return "without READ_RESTING_HEART_RATE, the bridge cannot read resting heart rate"
        }
    }

    public static let readHistory = "android.permission.health.READ_HEALTH_DATA_HISTORY"
    public static let readInBackground = "android.permission.health.READ_HEALTH_DATA_IN_BACKGROUND"
    public static let readResting = "android.permission.health.READ_RESTING_HEART_RATE"

    /// A changes token expires after 30 days unused.
    public static let changesTokenLifetimeDays = 30

    /// The words for a feed whose token may have expired (`StreamState.changesTokenIdleDays(today:)`).
    public static func changesTokenWords(idleDays: Int) -> String {
        "last read \(idleDays) days ago; its changes token expires after \(changesTokenLifetimeDays) days unused, "
            + "so the bridge may need a full resync"
    }

    /// The limits implied by the permissions a feed reports holding, in a fixed order.
    public static func limits(granted: [String]) -> [PermissionLimit] {
        let set = Set(granted.map { $0.hasPrefix("android.permission.health.") ? $0 : "android.permission.health." + $0 })
        var limits: [PermissionLimit] = []
        if !set.contains(readResting) { limits.append(.noRestingPermission) }
        if !set.contains(readHistory) { limits.append(.historyLimited) }
        if !set.contains(readInBackground) { limits.append(.noBackgroundReads) }
        return limits
    }
}
