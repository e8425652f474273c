// The default theme's screenshots in docs/screenshots, rendered from the screen buffer with its colours.
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// A terminal the screenshots are drawn for: its background, its foreground and its sixteen colours. The default
/// theme is the terminal's own colours, so a screenshot shows them as a real terminal would.
struct ScreenshotTerminal {
    var name: String
    var background: (Int, Int, Int)
    var foreground: (Int, Int, Int)
    /// Colours 0–15.
    var palette: [(Int, Int, Int)]

    static let xterm = (0..<16).map(ThemeColours.xtermRGB)
    /// xterm as it starts: black on white, its own palette.
    static let light = ScreenshotTerminal(name: "light", background: (255, 255, 255), foreground: (0, 0, 0), palette: xterm)
    /// xterm reversed, as a dark terminal: light grey on black, the same palette.
    static let dark = ScreenshotTerminal(name: "dark", background: (0, 0, 0), foreground: (229, 229, 229), palette: xterm)

    /// One run of cells in one look: its text, its foreground and background (`#rrggbb`), bold and underline.
    struct Run: Equatable {
        var text: String
        var colours: [String]
        var bold = false, underline = false
    }

    /// `#rrggbb`.
    static func hex(_ c: (Int, Int, Int)) -> String { String(format: "#%02x%02x%02x", c.0, c.1, c.2) }

    func rgb(_ colour: ThemeColours.Colour) -> (Int, Int, Int) {
        switch colour {
        case .terminal: return foreground
        case .indexed(let n): return n < 16 ? palette[n] : ThemeColours.xtermRGB(n)
        case .rgb(let r, let g, let b): return (r, g, b)
        }
    }

    /// Halfway to the background: how a terminal draws faint (dim) text.
    func faint(_ c: (Int, Int, Int)) -> (Int, Int, Int) {
        ((c.0 + background.0) / 2, (c.1 + background.1) / 2, (c.2 + background.2) / 2)
    }

    /// A style's colours under `theme`, as `CursesTerminal`'s palette gives them: a role the theme leaves to the
    /// terminal's foreground is that, faint.
    func look(_ style: Style, theme: ThemeColours) -> (fg: (Int, Int, Int), bg: (Int, Int, Int), bold: Bool, underline: Bool) {
        var dim = style.attributes.contains(.dim)
        var fg: (Int, Int, Int)
        switch style.tint {
        case .plain, .band: fg = foreground
        case .muted:
            if let muted = theme.muted { fg = rgb(muted) } else { fg = foreground; dim = true }
        case .accent: fg = rgb(theme.accent)
        case .context:
            if let context = theme.context { fg = rgb(context) } else { fg = foreground; dim = true }
        case .series(let n): fg = rgb(theme.series[n % theme.series.count])
        }
        var bg = style.background == .band ? theme.band.map(rgb) ?? background : background
        if dim { fg = faint(fg) }
        if style.attributes.contains(.reverse) { swap(&fg, &bg) }
        return (fg, bg, style.attributes.contains(.bold), style.attributes.contains(.underline))
    }

    /// The buffer's rows as runs of one look each.
    func runs(_ buffer: ScreenBuffer, theme: ThemeColours) -> [[Run]] {
        (0..<buffer.height).map { y in
            var runs: [Run] = []
            for x in 0..<buffer.width where !buffer[x, y].isContinuation {
                let cell = buffer[x, y]
                let l = look(cell.style, theme: theme)
                let run = Run(text: String(cell.glyph), colours: [Self.hex(l.fg), Self.hex(l.bg)], bold: l.bold,
                              underline: l.underline)
                if let last = runs.last, last.colours == run.colours, last.bold == run.bold, last.underline == run.underline {
                    runs[runs.count - 1].text += run.text
                } else {
                    runs.append(run)
                }
            }
            return runs
        }
    }

    /// One page that shows the screen as `light` draws it, or as `dark` where the reader's system asks for dark
    /// (`prefers-color-scheme`): the screen's text once, each span a class of one style, the two looks in CSS.
    static func html(_ buffer: ScreenBuffer, theme: ThemeColours, light: ScreenshotTerminal, dark: ScreenshotTerminal,
                     title: String) -> String {
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        var styles: [Style] = []
        var rows: [String] = []
        for y in 0..<buffer.height {
            var row = "", current: Style?, text = ""
            func flush() {
                guard let style = current else { return }
                if !styles.contains(style) { styles.append(style) }
                row += "<span class=\"s\(styles.firstIndex(of: style)!)\">\(escaped(text))</span>"
            }
            for x in 0..<buffer.width where !buffer[x, y].isContinuation {
                let cell = buffer[x, y]
                if cell.style != current { flush(); current = cell.style; text = "" }
                text.append(cell.glyph)
            }
            flush()
            rows.append(row)
        }
        func css(_ terminal: ScreenshotTerminal) -> String {
            let page = "body,pre{color:\(hex(terminal.foreground));background:\(hex(terminal.background))}"
            return page + styles.enumerated().map { i, style in
                let l = terminal.look(style, theme: theme)
                return ".s\(i){color:\(hex(l.fg));background:\(hex(l.bg))\(l.bold ? ";font-weight:bold" : "")"
                    + "\(l.underline ? ";text-decoration:underline" : "")}"
            }.joined()
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title>
            <style>body{margin:0}pre{margin:0;padding:12px;font:14px/1.25 "DejaVu Sans Mono",monospace}
            \(css(light))
            @media (prefers-color-scheme: dark){\(css(dark))}</style>
            </head><body><pre>
            \(rows.joined(separator: "\n"))
            </pre></body></html>

            """
    }

    /// The runs as JSON lines, one row a line, for `scripts/screenshots` to draw as PNG.
    func cells(_ buffer: ScreenBuffer, theme: ThemeColours) -> String {
        func quoted(_ s: String) -> String {
            "\"" + s.unicodeScalars.map { $0 == "\"" ? "\\\"" : $0 == "\\" ? "\\\\" : String($0) }.joined() + "\""
        }
        let header = "{\"width\":\(buffer.width),\"height\":\(buffer.height),\"background\":\(quoted(Self.hex(background)))}"
        return ([header] + runs(buffer, theme: theme).map { row in
            "[" + row.map { "[\(quoted($0.text)),\(quoted($0.colours[0])),\(quoted($0.colours[1])),\($0.bold),\($0.underline)]" }
                .joined(separator: ",") + "]"
        }).joined(separator: "\n") + "\n"
    }
}

@Suite("Screenshots of the default theme on a light and a dark terminal")
struct ScreenshotTests {
    /// The screen the screenshots show: the standard sixty days of three writers, with the usual range of Oura, as the
    /// default theme's terminal has it (no band colour: its edges are drawn).
    static func state() -> DashboardState {
        var state = DashboardState(data: Fixture.standard(), size: TerminalSize(width: 100, height: 30), today: Fixture.lastDay,
                                   capabilities: TerminalCapabilities(unicode: true, color: true, bandColour: false))
        Fixture.press(&state, .character("b"))
        return state
    }

    @Test("Each writer in its own colour, readable on white and on black; RHR_UPDATE_SCREENSHOTS=1 writes them")
    func screenshots() throws {
        let theme = try #require(Theme.standard.colours)
        let buffer = Fixture.render(Self.state(), sentinel: " ")
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/screenshots").path
        let update = ProcessInfo.processInfo.environment["RHR_UPDATE_SCREENSHOTS"] == "1"
        for terminal in [ScreenshotTerminal.light, .dark] {
            // The three writers' glyphs each in their own colour, none the background's (the cursor column aside).
            let glyphs = buffer.cells.filter { "●◆■".contains($0.glyph) && !$0.style.attributes.contains(.reverse) }
            let colours = Set(glyphs.map { ScreenshotTerminal.hex(terminal.look($0.style, theme: theme).fg) })
            #expect(colours.count == 3 && !colours.contains(ScreenshotTerminal.hex(terminal.background)), "\(colours)")
            if update {
                let cellsDirectory = ProcessInfo.processInfo.environment["RHR_SCREENSHOT_CELLS"] ?? NSTemporaryDirectory()
                try terminal.cells(buffer, theme: theme)
                    .write(toFile: "\(cellsDirectory)/default-theme-\(terminal.name).cells", atomically: true, encoding: .utf8)
            }
        }
        let html = ScreenshotTerminal.html(buffer, theme: theme, light: .light, dark: .dark,
                                           title: "rhr, the default theme (light, or dark where your system is)")
        #expect(html.contains("Resting heart rate, bpm") && html.contains("prefers-color-scheme: dark"))
        if update { try html.write(toFile: "\(docs)/default-theme.html", atomically: true, encoding: .utf8) }
    }
}
