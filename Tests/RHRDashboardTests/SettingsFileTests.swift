import Foundation
import RHRCore
@testable import RHRDashboard
import RHRLive
import RHRScreen
import RHRTestSupport
import Testing

/// The config file and the view state kept per store: parsed in pure code, read and written (0600 in 0700
/// directories) by `DashboardFiles`, on real files.
@Suite("Settings: the config file and the view kept per store")
struct SettingsFileTests {
    static let path = "/home/jane/.config/rhr/config"

    @Test("The config: theme, mouse and aggregation, comments and blank lines, any spacing")
    func config() throws {
        let text = "# rhr\n\ntheme = high-contrast\n  mouse=off  \naggregation = Lowest\r\n"
        let config = try DashboardConfig.parse(text, path: Self.path)
        #expect(config == DashboardConfig(theme: .highContrast, mouse: false, aggregation: .lowest))
        #expect(try DashboardConfig.parse("", path: Self.path) == DashboardConfig())
        #expect(try DashboardConfig.parse("theme = mono", path: Self.path).theme == .mono)
        // The ASCII switch: glyphs only in ASCII, whatever the locale; colour stays (NO_COLOR is for that).
        #expect(try DashboardConfig.parse("glyphs = ascii", path: Self.path).glyphs == .ascii)
        #expect(try DashboardConfig.parse("glyphs = unicode", path: Self.path).glyphs == .unicode)
        #expect(try DashboardConfig.parse("glyphs = Blocks", path: Self.path).glyphs == .blocks)
        #expect(DashboardConfig().glyphs == nil)
    }

    @Test("A bad config line is an error naming the file and the line", arguments: [
        ("theme = dark", 1, "theme \"dark\" is not one rhr knows; use default, 256, truecolor, high-contrast or mono"),
        ("# ok\nmouse = sometimes", 2, "mouse must be on or off, not \"sometimes\""),
        ("aggregation = median", 1, "aggregation must be latest, lowest or mean, not \"median\""),
        ("\n\ncolour = blue", 3, "unknown setting \"colour\"; the settings are theme, mouse, aggregation and glyphs"),
        ("theme mono", 1, "expected \"key = value\" (theme, mouse, aggregation or glyphs)"),
        ("glyphs = emoji", 1, "glyphs must be unicode, blocks or ascii, not \"emoji\""),
        ("theme = mono\ntheme = default", 2, "theme is set twice (first on line 1)"),
    ])
    func badConfig(text: String, line: Int, message: String) {
        #expect(throws: ConfigError(path: Self.path, line: line, message: message)) {
            try DashboardConfig.parse(text, path: Self.path)
        }
        #expect("\(ConfigError(path: Self.path, line: line, message: message))" == "\(Self.path):\(line): \(message)")
    }

    static let settings = ViewSettings(aggregation: .mean, zoom: .week,
                                       hidden: [WriterKey(store: .healthKit, name: "Withings"),
                                                WriterKey(store: .healthConnect, name: "com.odd:name\\with\nbreak")],
                                       showMean: true, showBand: true, showWhiskers: false,
                                       bandWriter: WriterKey(store: .healthConnect, name: "com.ouraring.oura"))

    @Test("The view state round-trips, for its own store only")
    func viewState() {
        let text = ViewStateFile.format(Self.settings, store: "/data/rhr.sqlite")
        #expect(text.contains("aggregation = mean\nzoom = week\nmean = on\nband = on\nwhiskers = off\n"))
        #expect(ViewStateFile.parse(text, store: "/data/rhr.sqlite") == Self.settings)
        #expect(ViewStateFile.parse(text, store: "/other/rhr.sqlite") == nil)
        #expect(ViewStateFile.fileName(forStore: "/data/rhr.sqlite") != ViewStateFile.fileName(forStore: "/other/rhr.sqlite"))
        // FNV-1a of "a": the same name in every run and on every machine, so a restart finds its view.
        #expect(ViewStateFile.fileName(forStore: "a") == "view-af63dc4c8601ec8c")
    }

    @Test("A corrupt view state is ignored as a whole", arguments: [
        "", "store = /data/rhr.sqlite\nzoom = decade\n", "store = /data/rhr.sqlite\nmean = maybe\n",
        "store = /data/rhr.sqlite\nhidden = nostore:Withings\n", "zoom = week\nstore = /data/rhr.sqlite\n",
        "store = /data/rhr.sqlite\nsomething else\n", "\u{0}\u{1}binary",
    ])
    func corruptViewState(text: String) {
        #expect(ViewStateFile.parse(text, store: "/data/rhr.sqlite") == nil)
    }

    /// A private directory's `state`, `config` and `home` as $XDG_STATE_HOME, $XDG_CONFIG_HOME and $HOME.
    static func environment(_ scratch: TemporaryDirectory) -> [String: String] {
        ["XDG_STATE_HOME": scratch.file("state"), "XDG_CONFIG_HOME": scratch.file("config"), "HOME": scratch.file("home")]
    }

    @Test("The view is kept in $XDG_STATE_HOME/rhr, 0600 in 0700 directories, and read back for the same store")
    func keptOnDisk() throws {
        let scratch = try TemporaryDirectory(prefix: "rhr-settings")
        let env = Self.environment(scratch)
        #expect(DashboardFiles.loadViewState(store: "/data/rhr.sqlite", environment: env) == nil)
        try DashboardFiles.saveViewState(Self.settings, store: "/data/rhr.sqlite", environment: env)
        let dir = scratch.path + "/state/rhr"
        let file = dir + "/" + ViewStateFile.fileName(forStore: "/data/rhr.sqlite")
        #expect(FileMode.permissions(scratch.path + "/state") == 0o700 && FileMode.permissions(dir) == 0o700)
        #expect(FileMode.permissions(file) == 0o600)
        #expect(DashboardFiles.loadViewState(store: "/data/rhr.sqlite", environment: env) == Self.settings)
        #expect(DashboardFiles.loadViewState(store: "/data/other.sqlite", environment: env) == nil)
        // Written again: the same file, no temporary left behind.
        try DashboardFiles.saveViewState(ViewSettings(), store: "/data/rhr.sqlite", environment: env)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [ViewStateFile.fileName(forStore: "/data/rhr.sqlite")])
        #expect(DashboardFiles.loadViewState(store: "/data/rhr.sqlite", environment: env) == ViewSettings())
        // A corrupt file is no view, not an error.
        try "zoom = ?\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(DashboardFiles.loadViewState(store: "/data/rhr.sqlite", environment: env) == nil)
    }

    @Test("The XDG directories: absolute variables, else under HOME; the config is optional, a bad one names its line")
    func locations() throws {
        let scratch = try TemporaryDirectory(prefix: "rhr-settings")
        #expect(DashboardFiles.configPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/rhr/config")
        #expect(DashboardFiles.configPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/rhr/config")
        #expect(DashboardFiles.stateDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/rhr")
        #expect(try DashboardFiles.loadConfig(environment: Self.environment(scratch)) == DashboardConfig())
        try FileManager.default.createDirectory(atPath: scratch.path + "/config/rhr", withIntermediateDirectories: true)
        let path = scratch.path + "/config/rhr/config"
        try "mouse = off\ntheme = sepia\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError(path: path, line: 2, message: "theme \"sepia\" is not one rhr knows; use default, 256, truecolor, high-contrast or mono")) {
            try DashboardFiles.loadConfig(environment: Self.environment(scratch))
        }
        // Bytes that are not UTF-8 (Latin-1 "é"): the file is named, with no line.
        try Data([0x74, 0x68, 0x65, 0x6D, 0x65, 0x20, 0x3D, 0x20, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigError(path: path, line: 0, message: "cannot be read as UTF-8 text")) {
            try DashboardFiles.loadConfig(environment: Self.environment(scratch))
        }
        #expect("\(ConfigError.unreadable(path))" == "\(path): cannot be read as UTF-8 text")
    }

    @Test("The session opens with the kept view, honours the mouse setting, and leaves the view it ended with")
    @MainActor
    func session() throws {
        let terminal = ScriptedTerminal([.input(.mouse(MouseEvent(.press, x: 15, y: 6))), .input(.key(.character("a")))])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        let kept = ViewSettings(aggregation: .mean, zoom: .week, hidden: [Fixture.withings.key], showMean: true)
        #expect(try session.run(on: terminal, settings: kept, mouse: false) == .quit)
        let first = terminal.frames[0].lines
        #expect(first[0].contains("7-day mean") && first[0].hasSuffix("one value per day: mean "))
        #expect(first[2].contains("a week, weekly medians"))
        #expect(first.contains { $0.contains("3 ■ Withings (hidden)") })
        // The click was ignored (mouse off): the cursor stayed; `a` went from mean to latest.
        #expect(terminal.frames[1].lines[2].hasSuffix("▸ Thu 12 Mar 2026 "))
        var expected = kept
        expected.aggregation = .latest
        #expect(session.finalSettings == expected)
    }
}
