/// The two platforms rhr reads. R1: every value keeps its store; the two are never merged.
public enum HealthStore: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case healthKit = "healthkit"
    case healthConnect = "healthconnect"

    /// How the UI names the store.
    public var displayName: String {
        switch self {
        case .healthKit: return "HealthKit"
        case .healthConnect: return "Health Connect"
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: HealthStore, rhs: HealthStore) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
