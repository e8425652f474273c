import RHRCore
import RHRScreen

/// The dashboard's config file (`$XDG_CONFIG_HOME/rhr/config`): the theme, the mouse, and the aggregation a
/// store opens with until its own view state says otherwise. Parsed here, read from disk by the caller.
///
///     # rhr dashboard
///     theme = 256               # default (the terminal's own 16 colours), 256, truecolor, high-contrast or mono
///     mouse = off               # on (the default) or off
///     aggregation = lowest      # latest (the default), lowest or mean
///     glyphs = ascii            # unicode (the default, in a UTF-8 locale), blocks (a font without braille) or ascii
public struct DashboardConfig: Sendable, Equatable {
    public var theme: Theme
    public var mouse: Bool
    /// Nil: latest, unless the store's view state says otherwise.
    public var aggregation: Aggregation?
    /// The glyph switch: ASCII whatever the locale, or the chart in half blocks for a font without braille; colour
    /// as it was (`NO_COLOR` is colour's own switch). Nil: as the locale and the terminal allow.
    public var glyphs: TerminalCapabilities.GlyphChoice?

    public init(theme: Theme = .standard, mouse: Bool = true, aggregation: Aggregation? = nil,
                glyphs: TerminalCapabilities.GlyphChoice? = nil) {
        self.theme = theme
        self.mouse = mouse
        self.aggregation = aggregation
        self.glyphs = glyphs
    }

    /// The settings in `text`; a line that is not a known `key = value` is an error naming `path` and the line.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> DashboardConfig {
        let entries: [KeyValueLines.Entry]
        switch KeyValueLines.parse(text) {
        case .success(let list): entries = list
        case .failure(let error):
            throw ConfigError(path: path, line: error.line, message: "expected \"key = value\" (theme, mouse, aggregation or glyphs)")
        }
        var config = DashboardConfig()
        var seen: [String: Int] = [:]
        for entry in entries {
            func fail(_ message: String) -> ConfigError { ConfigError(path: path, line: entry.line, message: message) }
            if let first = seen[entry.key] { throw fail("\(entry.key) is set twice (first on line \(first))") }
            seen[entry.key] = entry.line
            // Each setting is one of a few words (any case); another word is an error saying which ones.
            func pick<T>(_ word: (String) -> T?, else message: String) throws(ConfigError) -> T {
                guard let picked = word(entry.value.lowercased()) else { throw fail(message) }
                return picked
            }
            switch entry.key {
            case "theme":
                config.theme = try pick(Theme.init(rawValue:),
                                        else: "theme \"\(entry.value)\" is not one rhr knows; use default, 256, truecolor, high-contrast or mono")
            case "mouse":
                config.mouse = try pick({ ["on": true, "true": true, "yes": true, "off": false, "false": false, "no": false][$0] },
                                        else: "mouse must be on or off, not \"\(entry.value)\"")
            case "aggregation":
                config.aggregation = try pick(Aggregation.init(rawValue:),
                                              else: "aggregation must be latest, lowest or mean, not \"\(entry.value)\"")
            case "glyphs":
                config.glyphs = try pick(TerminalCapabilities.GlyphChoice.init(rawValue:),
                                         else: "glyphs must be unicode, blocks or ascii, not \"\(entry.value)\"")
            default:
                throw fail("unknown setting \"\(entry.key)\"; the settings are theme, mouse, aggregation and glyphs")
            }
        }
        return config
    }
}

/// A config file rhr cannot use: the file and line, and what is wrong there.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String

    /// A file that is there but cannot be read as text; what is wrong at a line is found by `parse`.
    public static func unreadable(_ path: String) -> ConfigError {
        ConfigError(path: path, line: 0, message: "cannot be read as UTF-8 text")
    }

    /// "…/rhr/config:3: …", or without a line for the file as a whole (line 0).
    public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}
