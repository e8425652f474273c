// The colour themes a person can choose in the config file, and the colour each gives every role.
/// The colour theme a person chose in the config file (`theme =`): the terminal's own sixteen colours (the default,
/// which its light or dark palette already suits to its background), fixed 256-colour or true-colour ones (hues of
/// middle lightness, which read on a light and a dark background alike), a brighter 256-colour one for a dark
/// background, or none at all (as under `NO_COLOR`). Roles stay the same in every theme; only how they look changes.
public enum Theme: String, Sendable, Hashable, CaseIterable {
    case standard = "default"
    case colors256 = "256"
    case truecolor
    case highContrast = "high-contrast"
    case mono

    /// Each role's colour in this theme; nil for `mono`.
    public var colours: ThemeColours? {
        switch self {
        case .standard: return .sixteen
        case .colors256: return .indexed256
        case .truecolor: return .trueColor
        case .highContrast: return .highContrast
        case .mono: return nil
        }
    }
}

/// The colours of a theme, by role (`Tint`). No series colour is red or green (R11), so no writer reads as an
/// alarm or an all-clear; every series colour of the fixed themes has a contrast of at least 3:1 (WCAG's measure for
/// graphics) against white and against black (`ThemeTests`).
public struct ThemeColours: Sendable, Hashable {
    /// A colour as the terminal is asked for it.
    public enum Colour: Sendable, Hashable {
        /// The terminal's own foreground.
        case terminal
        /// A colour number: 0–15 the terminal's own palette, 16–255 xterm's 256 colours.
        case indexed(Int)
        /// Red, green and blue: drawn as such where the terminal takes direct colour (`TERM=xterm-direct`), else as
        /// the nearest of xterm's 256 (`nearestIndexed`).
        case rgb(Int, Int, Int)
    }

    /// Secondary text (axes, hints); nil: the terminal's foreground, dimmed.
    public var muted: Colour?
    /// Titles and the cursor's date.
    public var accent: Colour
    /// The sedentary context series (R8); nil: the terminal's foreground, dimmed.
    public var context: Colour?
    /// The writers' colours, by slot (they repeat after the last).
    public var series: [Colour]
    /// The usual range's background; nil: no background that reads on every background, so its edges are drawn.
    public var band: Colour?

    /// The terminal's own palette: the colours a person's terminal already suits to its background. Blue (bright),
    /// magenta and cyan first, which read on the common light and dark palettes; no red or green, no white or black.
    public static let sixteen = ThemeColours(
        muted: nil, accent: .terminal, context: nil,
        series: [12, 5, 6, 13, 3, 4, 14, 11].map(Colour.indexed) + [.terminal], band: nil)

    /// xterm's 256 colours of middle lightness (relative luminance 0.14–0.28), each 3.3:1 or more on white and black.
    public static let indexed256 = ThemeColours(
        muted: .indexed(243), accent: .indexed(31), context: .indexed(95),
        series: [32, 130, 97, 30, 168, 67, 136, 133, 61].map(Colour.indexed), band: nil)

    /// The same hues in true colour, each at relative luminance 0.19: 4.3:1 or more on white and black.
    public static let trueColor = ThemeColours(
        muted: .rgb(121, 121, 121), accent: .rgb(18, 129, 176), context: .rgb(140, 116, 105),
        series: [.rgb(31, 123, 208), .rgb(184, 99, 0), .rgb(148, 98, 197), .rgb(0, 134, 134), .rgb(196, 79, 128),
                 .rgb(92, 122, 168), .rgb(149, 116, 0), .rgb(167, 93, 169), .rgb(109, 113, 198)],
        band: nil)

    /// Brighter 256 colours for a dark background, the usual range a dark grey band behind the lines.
    public static let highContrast = ThemeColours(
        muted: .indexed(250), accent: .indexed(117), context: .indexed(224),
        series: [39, 214, 171, 51, 209, 117, 227, 213, 159].map(Colour.indexed), band: .indexed(238))

    /// The red, green and blue of colour `index` as xterm draws it by default (0–15 its own palette, 16–231 the
    /// 6×6×6 cube, 232–255 the greys): what the contrast check and the screenshots measure.
    public static func xtermRGB(_ index: Int) -> (Int, Int, Int) {
        let sixteen = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                       (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                       (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        if index < 16 { return sixteen[max(0, index)] }
        if index >= 232 { let v = 8 + (index - 232) * 10; return (v, v, v) }
        let levels = [0, 95, 135, 175, 215, 255], n = index - 16
        return (levels[n / 36], levels[n / 6 % 6], levels[n % 6])
    }

    /// The nearest of xterm's colours 16–255 to red, green and blue (the least squared distance).
    public static func nearestIndexed(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (16...255).min { a, c in
            func distance(_ i: Int) -> Int {
                let (x, y, z) = xtermRGB(i)
                return (x - r) * (x - r) + (y - g) * (y - g) + (z - b) * (z - b)
            }
            return distance(a) < distance(c)
        }!
    }
}
