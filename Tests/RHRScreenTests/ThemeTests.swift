// Every theme's colours, measured: no red or green, and the fixed ones read on a light and a dark background.
import Foundation
import RHRScreen
import Testing

@Suite("Themes: the terminal's own colours by default; the fixed themes read on white and on black")
struct ThemeTests {
    /// WCAG's relative luminance and contrast ratio.
    static func luminance(_ rgb: (Int, Int, Int)) -> Double {
        func linear(_ c: Int) -> Double {
            let v = Double(c) / 255
            return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
    }

    static func contrast(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func rgb(_ colour: ThemeColours.Colour) -> (Int, Int, Int)? {
        switch colour {
        case .terminal: return nil
        case .indexed(let n): return ThemeColours.xtermRGB(n)
        case .rgb(let r, let g, let b): return (r, g, b)
        }
    }

    @Test("256 and true colour: every series, muted, accent and context colour 3:1 or more on white and on black",
          arguments: [Theme.colors256, .truecolor])
    func fixedThemesReadOnBoth(theme: Theme) throws {
        let colours = try #require(theme.colours)
        let roles = colours.series + [colours.muted, colours.accent, colours.context].compactMap { $0 }
        for colour in roles {
            let c = try #require(Self.rgb(colour))
            #expect(Self.contrast(c, (255, 255, 255)) >= 3.3, "\(theme) \(colour) on white")
            #expect(Self.contrast(c, (0, 0, 0)) >= 3.3, "\(theme) \(colour) on black")
        }
        #expect(colours.band == nil, "no band background reads on both: its edges are drawn")
        #expect(Set(colours.series).count == colours.series.count, "each writer its own colour")
    }

    @Test("The default is the terminal's own sixteen colours: no red, green, white or black; the first three read on both")
    func sixteen() throws {
        let colours = try #require(Theme.standard.colours)
        for case .indexed(let n) in colours.series {
            #expect(n < 16, "the terminal's own palette, which it suits to its background")
            #expect(![0, 1, 2, 7, 8, 9, 10, 15].contains(n), "colour \(n): red, green, white or black")
        }
        // In xterm's own palette the first writers' colours read on white and on black alike.
        for colour in colours.series.prefix(2) {
            let c = try #require(Self.rgb(colour))
            #expect(Self.contrast(c, (255, 255, 255)) >= 4.5 && Self.contrast(c, (0, 0, 0)) >= 4.4, "\(colour)")
        }
        #expect(colours.muted == nil && colours.context == nil, "dimmed text in the terminal's own colour")
        #expect(colours.band == nil)
    }

    @Test("True colour on a 256-colour terminal: the nearest of xterm's 256")
    func nearest() {
        #expect(ThemeColours.nearestIndexed(0, 135, 135) == 30)
        #expect(ThemeColours.nearestIndexed(128, 128, 128) == 244)
        #expect(ThemeColours.xtermRGB(232) == (8, 8, 8) && ThemeColours.xtermRGB(196) == (255, 0, 0))
    }
}
