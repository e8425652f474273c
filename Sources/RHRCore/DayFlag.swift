/// The flags a day's value carries (R3 provisional, R5 offset assumed, R6 out of range, R13 implausible date), each
/// with its letter, its words and its export column: the one list behind `rhr summary`'s cells and legend, the
/// dashboard's per-source columns and their key, the detail pane, the chart's legend and `rhr export`, so a flag
/// reads the same wherever it shows.
public enum DayFlag: String, CaseIterable, Sendable {
    case provisional = "p", offsetAssumed = "o", outOfRange = "x", implausibleDate = "d"

    /// The letter a cell shows.
    public var letter: String { rawValue }

    /// What it is, in two words or so: the columns' key.
    public var word: String {
        switch self {
        case .provisional: "provisional"
        case .offsetAssumed: "offset assumed"
        case .outOfRange: "out of range"
        case .implausibleDate: "implausible date"
        }
    }

    /// What it means for the value.
    public var note: String {
        switch self {
        case .provisional: "Apple may still replace this estimate"
        case .offsetAssumed: "none recorded"
        case .outOfRange, .implausibleDate: "kept, not in the value"
        }
    }

    /// Its words with what it means: "out of range (kept, not in the value)", "provisional: Apple may still replace
    /// this estimate".
    public var legend: String {
        self == .provisional ? "\(word): \(note)" : "\(word) (\(note))"
    }

    /// Its column in `rhr export`'s CSV and key in its JSON.
    public var column: String {
        switch self {
        case .provisional: "provisional"
        case .offsetAssumed: "offset_assumed"
        case .outOfRange: "out_of_range"
        case .implausibleDate: "implausible_date"
        }
    }

    /// How many of the day's samples it marks: 1 for a flag of the value as a whole, 0 when off.
    public func count(in value: DayValue) -> Int {
        switch self {
        case .provisional: value.provisional ? 1 : 0
        case .offsetAssumed: value.offsetAssumed ? 1 : 0
        case .outOfRange: value.outOfRange
        case .implausibleDate: value.implausibleDate
        }
    }

    /// Its value in `rhr export`: `true`/`false` for a flag of the value as a whole, else how many samples it marks.
    public func exported(from value: DayValue) -> String {
        switch self {
        case .provisional, .offsetAssumed: String(count(in: value) > 0)
        case .outOfRange, .implausibleDate: String(count(in: value))
        }
    }

    /// The flags a day's value carries, in the one order.
    public static func of(_ value: DayValue) -> [DayFlag] {
        allCases.filter { $0.count(in: value) > 0 }
    }

    /// A value's flags as a cell shows them: "po", or with `counts` the samples each counted flag marks when more
    /// than one ("p x2 d").
    public static func cell(_ value: DayValue, counts: Bool = false, separator: String = "") -> String {
        of(value).map { flag in
            let n = flag.count(in: value)
            return counts && n > 1 ? "\(flag.letter)\(n)" : flag.letter
        }.joined(separator: separator)
    }

    /// The key to the letters, each with its words: "p provisional · o offset assumed · x out of range · d implausible
    /// date".
    public static func key(dot: String = "·") -> String {
        allCases.map { "\($0.letter) \($0.word)" }.joined(separator: " \(dot) ")
    }
}
