// Words on the dashboard that are true and are words: the band `b` names, plurals, one legend entry per
// derivation, cut text with its ellipsis, a webhook writer by its app's name.
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import RHRTestSupport
import Testing

@Suite("True words: what b names, plurals, the derivation legend, ellipses, webhook writers by name")
struct TrueWordsTests {
    /// Oura on ten days only: never 14 days with a value in 28, so it has no usual range anywhere.
    static func tenDaysOfOura() -> DashboardData {
        let samples = (0..<10).map { i in
            Fixture.healthConnect(Fixture.oura, Fixture.lastDay.adding(days: i - 9), Int64(52 + i % 3), id: "o\(i)")
        }
        return DashboardData(samples: samples, revision: 1, machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!)
    }

    @Test("b on a writer with too few days names no band it cannot draw: the message says why instead")
    func bandNamesOnlyWhatItDraws() {
        var state = Fixture.state(Self.tenDaysOfOura(), size: TerminalSize(width: 100, height: 30))
        Fixture.press(&state, .character("b"))
        let lines = Fixture.screen(state)
        #expect(!lines[0].contains("usual range of Oura"), "\(lines[0])")
        #expect(state.message == "Oura has no usual range yet: it needs 14 days with a value in 28.")
        // With the days it needs, the header names it, as before.
        var full = Fixture.state(size: TerminalSize(width: 100, height: 30))
        Fixture.press(&full, .character("b"))
        #expect(Fixture.screen(full)[0].contains("usual range of Oura"))
        #expect(full.message == "Usual range of Oura: f follows another writer.")
    }

    @Test("A usual range exists exactly where the band has a day: checked against the band itself on sparse histories")
    func usualRangeExists() {
        var random = SplitMix64(seed: 14)
        for trial in 0..<200 {
            // Days with a value, each kept with a chance that makes 14 in 28 sometimes reached and sometimes not.
            let keep = [0.3, 0.5, 0.6][trial % 3]
            let days = (0..<90).filter { _ in Double(random.next() % 1000) / 1000 < keep }
            let samples = days.map { Fixture.healthConnect(Fixture.oura, Fixture.lastDay.adding(days: $0 - 89), 55, id: "u\($0)") }
            let index = DashboardIndex(DashboardData(samples: samples, revision: 1,
                                                     machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!))
            guard !index.writers.isEmpty else { continue }
            let values = index.values(writer: 0, aggregation: .latest)
            let band = UsualRange.series(values, from: Fixture.lastDay.adding(days: -89), to: Fixture.lastDay)
            #expect(UsualRange.exists(values) == !band.isEmpty, "trial \(trial): \(days)")
        }
    }

    @Test("Plurals: one sample is 1 sample")
    func plurals() {
        var data = Fixture.standard()
        var one = HeartRateDaySummary(writer: Fixture.withings, day: Fixture.lastDay)
        one.add(bpm: 70, context: .sedentary)
        data.heartRateDays.append(one)
        let text = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 200, height: 60))).joined(separator: "\n")
        #expect(text.contains("1 sample (1 sedentary, 0 active, 0 not set)"), "\(text)")
        #expect(!text.contains("1 samples"))
    }

    @Test("One legend entry per derivation: two watches' all-day rest estimate is one entry with both glyphs")
    func oneEntryPerDerivation() {
        let other = Writer(store: .healthKit, name: "Eli’s Apple Watch")
        var data = Fixture.standard()
        data.samples.removeAll { $0.sample.writer == Fixture.withings }
        for i in 0..<60 {
            data.samples.append(Fixture.healthKit(other, Fixture.lastDay.adding(days: -i), 60 + Double(i % 4)))
        }
        data.watchWriters = [Fixture.watch.key, other.key]
        let state = Fixture.state(data, size: TerminalSize(width: 160, height: 40))
        let model = ChartView.Model(state, plotWidth: 150, glyphs: Glyphs(unicode: true))
        let entries = ChartView.derivationMarkers(model, glyphs: Glyphs(unicode: true)).map { $0.map(\.text).joined() }
        #expect(entries == ["● lowest 10-minute night average", "◆■ all-day rest estimate"], "\(entries)")
    }

    @Test("A Health Connect writer that came by HC Webhook, its records naming only the package, goes by its app's name")
    func webhookWriterByName() {
        let webhook = Writer(store: .healthConnect, name: "com.ouraring.oura")
        let samples = (0..<20).map { i in
            Fixture.healthConnect(webhook, Fixture.lastDay.adding(days: -i), Int64(52 + i % 3), id: "w\(i)")
        }
        let data = DashboardData(samples: samples, revision: 1, machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!)
        let lines = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 100, height: 30)))
        #expect(lines.contains { $0.contains("Health Connect: 1 ● Oura") }, "\(lines)")
        #expect(webhook.shortName == "Oura" && webhook.displayName == "Oura (com.ouraring.oura)")
        // A package the registry does not know stays its package.
        #expect(Writer(store: .healthConnect, name: "org.example.unknown").shortName == "org.example.unknown")
    }

    @Test("At 60 columns the header's currency, cut, ends in an ellipsis")
    func headerEllipsis() {
        let lines = Fixture.screen(Fixture.state(size: TerminalSize(width: 60, height: 20)))
        #expect(lines[1].hasSuffix("…"), "\(lines[1])")
    }
}
