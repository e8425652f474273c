/// How a cell looks. Colours are roles, not values: the backend maps them to what the terminal has, and drops
/// them under `NO_COLOR`. Nothing here means good or bad (R11); every role reads without colour too.
public struct Style: Sendable, Hashable {
    public var tint: Tint
    public var attributes: Attributes

    public init(tint: Tint = .plain, _ attributes: Attributes = []) {
        self.tint = tint
        self.attributes = attributes
    }

    public static let plain = Style()
    public static let bold = Style(tint: .plain, .bold)
    public static let dim = Style(tint: .muted)
    public static let reverse = Style(tint: .plain, .reverse)

    public func with(_ extra: Attributes) -> Style { Style(tint: tint, attributes.union(extra)) }

    /// Text attributes that every terminal and `NO_COLOR` allow.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1)
        public static let dim = Attributes(rawValue: 2)
        public static let reverse = Attributes(rawValue: 4)
        public static let underline = Attributes(rawValue: 8)
    }
}

/// Colour roles. `series(n)` is the nth writer's colour; the palette avoids red and green so no series
/// reads as an alarm or an all-clear.
public enum Tint: Sendable, Hashable {
    case plain
    /// Secondary text: axes, hints, explanations.
    case muted
    /// Titles and the cursor.
    case accent
    /// The sedentary context series (R8): visibly not one of the resting series.
    case context
    case series(Int)

    /// Distinct series colours the palette offers before it repeats.
    public static let seriesCount = 9
}
