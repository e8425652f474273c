import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

@Suite("Render: empty states, notices and help (R9, R10, R11)")
struct EmptyStateTests {
    @Test("No data at all: onboarding that says how to import or connect")
    func noData() {
        let buffer = Fixture.render(Fixture.state(DashboardData(source: "/tmp/rhr-test/rhr.sqlite")))
        let lines = buffer.lines
        let expected = [
            " rhr   no data yet                                                              ",
            " store: /tmp/rhr-test/rhr.sqlite                                                ",
            "                                                                                ",
            "  No resting heart rate here yet.                                               ",
            "                                                                                ",
            "  rhr shows one value per day for every app that writes resting heart rate to   ",
            "  Apple HealthKit or Android Health Connect, each writer on its own line. To    ",
            "  bring data in:                                                                ",
            "                                                                                ",
            "    rhr import export.zip             an Apple Health export (Health app, your  ",
            "                                      picture, Export All Health Data)          ",
            "    rhr import \"Health Connect.zip\"   a Health Connect export                   ",
            "    rhr import export.json            a Health Auto Export JSON file            ",
            "    rhr daemon                        then let a phone bridge push sync         ",
            "                                      batches as they happen                    ",
            "    rhr daemon --http ADDR:PORT       or let phones post Health Auto Export or  ",
            "                                      HC Webhook to it (docs/phone-feeds.md)    ",
            "    rhr demo                          look around with the bundled samples      ",
        ] + Array(repeating: String(repeating: " ", count: 80), count: 5) + [
            " r reload  ? help  q quit                                                       ",
        ]
        #expect(lines == expected)
        // The headline in the accent colour, the commands bold, what they do muted; the footer's keys bold.
        let styles = [
            "TTTTTmmmmmmmmmmmmm                                                              ",
            "mmmmmmmm                                                                        ",
            "                                                                                ",
            "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT                                               ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm  ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm          ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmm                   ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm            ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm         ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmm                    ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm  ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm    ",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm      ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "bbmmmmmmmmbbmmmmmmbbmmmmmm                                                      ",
        ]
        for (y, row) in styles.enumerated() { #expect(StyleMap.row(buffer, y) == row, "row \(y)") }
    }

    static func heartRateOnly() -> DashboardData {
        var summary = HeartRateDaySummary(writer: Fixture.watch, day: Fixture.lastDay)
        for v in 0..<1234 { summary.add(bpm: Double(60 + v % 20), context: v % 2 == 0 ? .sedentary : .active) }
        let contents = [StoreContents(store: .healthKit, heartRateSamples: 1234, heartRateWriters: [Fixture.watch]),
                        StoreContents(store: .healthConnect)]
        return DashboardData(heartRateDays: [summary], contents: contents, source: "/tmp/rhr-test/rhr.sqlite")
    }

    @Test("Heart rate but no resting writer: said in words, with the count and the writers; no chart")
    func heartRateWithoutResting() {
        let lines = Fixture.screen(Fixture.state(Self.heartRateOnly(), size: TerminalSize(width: 100, height: 30)))
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(lines[3].hasPrefix("  No resting heart rate to show."))
        #expect(text.contains("HealthKit holds 1,234 heart-rate samples from Jane’s Apple Watch and no resting heart rate."))
        // HealthKit does derive one, on the watch, which alone writes it: never "no app writes" it.
        #expect(text.contains("HealthKit's own resting heart rate is an estimate only an Apple Watch writes, from its"))
        #expect(!text.contains("no app writes"))
        #expect(!text.contains("└"))
        #expect(!text.contains("Resting heart rate, bpm"))
    }

    @Test("A Health Connect feed without READ_RESTING_HEART_RATE: the permission is named as the likely cause, not the writers")
    func permissionHidden() {
        for size in [TerminalSize(width: 80, height: 24), TerminalSize(width: 200, height: 60)] {
            let lines = Fixture.screen(Fixture.state(Fixture.permissionHidden(), size: size))
            let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(text.contains("The likely cause: Health Connect (pixel) did not have READ_RESTING_HEART_RATE"), "\(size)")
            #expect(!text.contains("none here did"))
            #expect(text.contains("without READ_RESTING_HEART_RATE, the bridge cannot read resting heart rate"), "\(size)")
        }
    }

    @Test("A store with heart rate but no resting writer beside one with resting values gets a notice line")
    func noticeBesideChart() {
        var data = Fixture.standard()
        var summary = HeartRateDaySummary(writer: Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile", appName: "Fitbit"),
                                          day: Fixture.lastDay)
        summary.add(bpm: 70, context: .notSet)
        data.heartRateDays.append(summary)
        data.contents[1] = StoreContents(store: .healthConnect, heartRateSamples: 40, heartRateWriters: [summary.writer])
        data.samples.removeAll { $0.sample.store == .healthConnect }
        let lines = Fixture.screen(Fixture.state(data))
        #expect(lines[2].hasPrefix(" · Health Connect holds 40 heart-rate samples from Fitbit (com.fitbit.Fitbit"))
        // In full in the help.
        var help = Fixture.state(data, size: TerminalSize(width: 160, height: 70))
        Fixture.press(&help, .character("?"), .character("G"))
        #expect(Fixture.screen(help).contains { $0.contains("Health Connect holds 40 heart-rate samples from Fitbit (com.fitbit.FitbitMobile) and no resting heart rate.") })
        #expect(lines[3].hasPrefix(" Resting heart rate, bpm"))
    }

    @Test("Health Connect permission limits (R10) show under the header and in full in the help")
    func permissionLimits() {
        var data = Fixture.standard()
        data.streams.append(StreamState(store: .healthConnect, stream: "pixel-bridge", cursor: "c1", asOf: Fixture.ouraAsOf,
                                        grantedPermissions: ["android.permission.health.READ_RESTING_HEART_RATE"]))
        var state = Fixture.state(data, size: TerminalSize(width: 120, height: 40))
        var lines = Fixture.screen(state)
        #expect(lines[2].contains("Health Connect (pixel-bridge): without READ_HEALTH_DATA_HISTORY, Health Connect reads reach only 30 days"))
        #expect(lines[3].contains("Health Connect (pixel-bridge): without READ_HEALTH_DATA_IN_BACKGROUND, values arrive only while"))
        // The changes token: 45 days after the last read.
        DashboardUpdate.update(&state, .tick(today: Fixture.lastDay.adding(days: 45)))
        Fixture.press(&state, .character("?"))
        lines = Fixture.screen(state)
        Fixture.press(&state, .character("G"))
        lines += Fixture.screen(state)
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("last read 45 days ago; its changes token expires after 30 days unused"))
        #expect(text.contains("without READ_HEALTH_DATA_IN_BACKGROUND, values arrive only while the bridge app is open"))
    }

    @Test("Help lists every key of the key table, every marker, and the note that this is not medical advice")
    func help() {
        let state = Fixture.state(size: TerminalSize(width: 100, height: 120), pressing: .character("?"))
        let buffer = Fixture.render(state)
        let lines = buffer.lines
        // Long entries wrap: read the help as words.
        let words = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        for binding in KeyTable.bindings {
            #expect(lines.contains { $0.hasPrefix("  " + binding.label(unicode: true) + " ") }
                    && words.contains(binding.label(unicode: true) + " " + binding.help),
                    "help lacks \(binding.label(unicode: true))")
        }
        for marker in ["provisional: Apple may still replace this estimate", "sedentary minimum (c)",
                       "out of range (below 1, above 300 bpm", "is the cursor day", "provisional, offset assumed",
                       "usual range (b)", "whiskers (w", "With the 7-day mean on (m)"] {
            #expect(words.contains(marker), "help lacks \(marker)")
        }
        #expect(lines.last!.hasPrefix(" rhr shows what your devices and apps recorded. It is not medical advice."))
        // Headings in the accent colour, keys bold, each marker as the chart draws it: writers' glyphs (filled
        // and hollow) in their colours, the context dot, the bold out-of-range cross, the cursor and change marks
        // in the accent colour; the wellness note bold.
        func styles(_ needle: String) -> String { StyleMap.row(buffer, Fixture.rowIndex(lines, containing: needle)!) }
        #expect(styles(" Keys").hasPrefix("TTTTT "))
        #expect(styles("this help").hasPrefix("  bbbb "))
        #expect(styles("one glyph and colour per writer").hasPrefix("  112233  "))
        #expect(styles("provisional: Apple may still").hasPrefix("  112233  "))
        #expect(styles("sedentary minimum (c)").hasPrefix("  c "))
        #expect(styles("a day with a value out of range").hasPrefix("  b "))
        #expect(styles("is the cursor day").hasPrefix("  M "), "the cursor: a highlighted column, not a glyph")
        #expect(styles("a line; dotted where").hasPrefix("  111 "))
        let band = StyleMap.row(buffer, Fixture.rowIndex(lines, containing: "usual range (b)")!,
                                extra: ["B": Style(tint: .series(0), background: .band)])
        #expect(band.hasPrefix("  BBB111 "), "the band's swatch in colour, its edges for when there is none")
        #expect(styles("in the per-source columns").hasPrefix("  bbbbb "))
        #expect(styles("a day a live update changed").hasPrefix("  T "))
        #expect(styles("It is not medical advice.").hasPrefix(String(repeating: "b", count: 73)))
        // Scrolled or not, on a small screen too, the note stays.
        var small = Fixture.state()
        Fixture.press(&small, .character("?"), .pageDown)
        #expect(Fixture.screen(small).last!.hasPrefix(" rhr shows what your devices and apps recorded. It is not medical advice."))
    }
}
