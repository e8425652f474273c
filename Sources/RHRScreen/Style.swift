/// How a cell looks. Colours are roles, not values: the backend maps them to what the terminal has, and drops
/// them under `NO_COLOR`. Nothing here means good or bad (R11); every role reads without colour too.
public struct Style: Sendable, Hashable {
    public var tint: Tint
    public var attributes: Attributes
    /// A background role (the chart's "usual range" band); nil: the terminal's own background. Dropped
    /// without colour, so a view that needs the area seen without colour draws it with glyphs as well.
    public var background: Tint?

    public init(tint: Tint = .plain, _ attributes: Attributes = [], background: Tint? = nil) {
        self.tint = tint
        self.attributes = attributes
        self.background = background
    }

    public static let plain = Style()
    public static let bold = Style(tint: .plain, .bold)
    public static let dim = Style(tint: .muted)
    public static let reverse = Style(tint: .plain, .reverse)

    public func with(_ extra: Attributes) -> Style { Style(tint: tint, attributes.union(extra), background: background) }

    /// The same style over a background role.
    public func on(_ background: Tint?) -> Style { Style(tint: tint, attributes, background: background) }

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
    /// Behind the chart: the "usual range" band (a quiet background, never a colour that judges).
    case band
    case series(Int)

    /// Distinct series colours the palette offers before it repeats.
    public static let seriesCount = 9
}
