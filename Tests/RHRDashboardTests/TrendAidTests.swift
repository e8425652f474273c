import Foundation
import RHRCore
@testable import RHRDashboard
import Testing

/// The trend aids' figures, on day values made here: the rolling mean, the usual range and the comparison.
@Suite("Trend aids: 7-day mean, usual range, comparison of writers")
struct TrendAidTests {
    static let start = LocalDay("2026-01-01")!
    static let writer = Writer(store: .healthKit, name: "Watch")

    /// Day values from `start`, one a day; nil is a day without samples, a negative number a day whose only
    /// sample was out of range (kept, no value).
    static func values(_ bpm: [Double?], from first: LocalDay = start) -> [DayValue] {
        bpm.enumerated().compactMap { i, v in
            guard let v else { return nil }
            let outOfRange = v < 0
            return DayValue(day: first.adding(days: i), writer: writer, aggregation: .latest, bpm: outOfRange ? nil : v,
                            samples: outOfRange ? 0 : 1, outOfRange: outOfRange ? 1 : 0, provisional: false,
                            offsetAssumed: false)
        }
    }

    func day(_ n: Int) -> LocalDay { Self.start.adding(days: n) }

    @Test("The rolling mean: the 7 days ending on each day, once 4 of them have a value; gaps stay gaps")
    func rollingMean() {
        let list = Self.values([50, 52, 54, 56, 58, 60, 62, 64, nil, 66])
        let mean = RollingMean.series(list, from: day(0), to: day(9))
        // Days 0–2 have fewer than four values in their window.
        #expect(mean.map(\.day) == [3, 4, 5, 6, 7, 9].map(day))
        #expect(mean[0].bpm == 53)               // 50 52 54 56
        #expect(mean[3].bpm == 56)               // 50 … 62
        #expect(mean[4].bpm == 58)               // 52 … 64: day 0 has left the window
        // Days 3–9: day 8 has no value, so six of them count.
        let lastWeek: [Double] = [56, 58, 60, 62, 64, 66]
        #expect(mean[5].bpm == lastWeek.reduce(0, +) / 6)
    }

    @Test("The rolling mean leaves out-of-range days out and reaches before the window it is asked for")
    func rollingMeanEdges() {
        let list = Self.values([60, 60, 60, -1, 70, 70, 70])
        let mean = RollingMean.series(list, from: day(6), to: day(6))
        #expect(mean.count == 1)
        let valid: [Double] = [60, 60, 60, 70, 70, 70]
        #expect(mean[0].bpm == valid.reduce(0, +) / 6, "the out-of-range day counts for nothing")
        #expect(RollingMean.series(Self.values([60, 61, 62]), from: day(0), to: day(2)).isEmpty, "fewer than 4 values")
        #expect(RollingMean.series([], from: day(0), to: day(9)).isEmpty)
        #expect(RollingMean.series(list, from: day(5), to: day(4)).isEmpty)
    }

    @Test("The usual range: median and middle half of the 28 days ending on each day, from 14 days with values")
    func usualRange() {
        // 1…20 over 20 days: the band starts on the 14th day with a value.
        let list = Self.values((1...20).map(Double.init))
        let band = UsualRange.series(list, from: day(0), to: day(19))
        #expect(band.first?.day == day(13))
        #expect(band.count == 7)
        // Day 13: the values 1…14, quartiles by interpolation.
        #expect(band[0] == UsualRange.Day(day: day(13), median: 7.5, lower: 4.25, upper: 10.75))
        #expect(band.last == UsualRange.Day(day: day(19), median: 10.5, lower: 5.75, upper: 15.25))
    }

    @Test("The usual range slides: days older than 28 leave it; gaps and out-of-range days do not count")
    func usualRangeEdges() {
        // 14 values, then 20 days without, then one: after 28 days the first ones leave and the band ends.
        var bpm: [Double?] = Array(repeating: 60, count: 14) + Array(repeating: nil, count: 20) + [70]
        var band = UsualRange.series(Self.values(bpm), from: day(0), to: day(40))
        #expect(band.map(\.day).first == day(13))
        #expect(band.map(\.day).last == day(27), "day 28 has only 13 values left in its window")
        // After a writer's last value the band stops, however many values its window still holds.
        band = UsualRange.series(Self.values(Array(repeating: 60, count: 20)), from: day(0), to: day(40))
        #expect(band.map(\.day).last == day(19))
        #expect(band.allSatisfy { $0.median == 60 && $0.lower == 60 && $0.upper == 60 })
        // Thirteen values and an out-of-range day: not yet.
        bpm = Array(repeating: 60, count: 13) + [-1]
        band = UsualRange.series(Self.values(bpm), from: day(0), to: day(13))
        #expect(band.isEmpty)
        #expect(UsualRange.quantile([5], 0.25) == 5)
    }

    @Test("The comparison: mean difference and spread over the shared days, from 14 of them")
    func comparison() {
        let a = Self.values((0..<20).map { 60 + Double($0 % 2) })          // 60 61 60 61 …
        let b = Self.values((0..<20).map { _ in 58 })
        let c = WriterComparison.compare(a, b, first: 0, second: 1)
        #expect(c?.sharedDays == 20)
        #expect(c?.meanDifference == 2.5)
        #expect(abs((c?.spread ?? 0) - 0.5130) < 0.001)
        #expect(c?.days == day(0)...day(19))
        // Shared days only: a gap in one, an out-of-range day in the other.
        var withGaps = (0..<20).map { Optional(60 + Double($0 % 2)) }
        withGaps[3] = nil
        withGaps[4] = -1
        #expect(WriterComparison.compare(Self.values(withGaps), b, first: 0, second: 1)?.sharedDays == 18)
        // Thirteen shared days: not compared, but counted.
        let short = Self.values(Array(repeating: 60, count: 13))
        #expect(WriterComparison.compare(short, b, first: 0, second: 1) == nil)
        #expect(WriterComparison.sharedDays(short, b) == 13)
        #expect(WriterComparison.compare([], b, first: 0, second: 1) == nil)
    }
}

@Suite("Dot canvas: braille and half-block dots, lines without holes, the layer that owns a cell")
struct DotCanvasTests {
    @Test("Dots map to Unicode's braille cells; out of the grid nothing happens")
    func dots() {
        var canvas = DotCanvas(width: 2, height: 1)
        canvas.set(0, 0, layer: 3)
        canvas.set(1, 3, layer: 1)
        canvas.set(9, 9, layer: 0)
        canvas.set(-1, 0, layer: 0)
        #expect(canvas.glyph(x: 0, y: 0) == "⢁")
        #expect(canvas.layer(x: 0, y: 0) == 1, "the lower layer number wins the cell")
        #expect(canvas.glyph(x: 1, y: 0) == nil && canvas.layer(x: 1, y: 0) == nil)
    }

    @Test("A line steps from dot to neighbouring dot; a dotted one skips every other")
    func lines() {
        var canvas = DotCanvas(width: 2, height: 2)
        canvas.line(from: (0, 7), to: (3, 0), layer: 0)
        var count = 0
        for y in 0..<2 {
            for x in 0..<2 {
                guard let glyph = canvas.glyph(x: x, y: y) else { continue }
                let bits = glyph.unicodeScalars.first!.value - 0x2800
                count += bits.nonzeroBitCount
            }
        }
        #expect(count == 8, "seven steps, eight dots")
        var dotted = DotCanvas(width: 2, height: 1)
        dotted.line(from: (0, 0), to: (3, 0), layer: 0, every: 2)
        #expect(dotted.glyph(x: 0, y: 0) == "⠁" && dotted.glyph(x: 1, y: 0) == "⠁")
    }

    @Test("Half blocks: one dot across, two down a cell; a steep line fills whole cells, a shallow one halves")
    func halfBlocks() {
        var canvas = DotCanvas(.halfBlocks, width: 3, height: 2)
        canvas.line(from: (0, 0), to: (0, 3), layer: 1)
        canvas.set(1, 1, layer: 0)
        canvas.set(2, 0, layer: 2)
        canvas.set(3, 0, layer: 0)
        #expect(canvas.glyph(x: 0, y: 0) == "█" && canvas.glyph(x: 0, y: 1) == "█")
        #expect(canvas.glyph(x: 1, y: 0) == "▄" && canvas.glyph(x: 2, y: 0) == "▀" && canvas.glyph(x: 1, y: 1) == nil)
        #expect(canvas.layer(x: 1, y: 0) == 0 && canvas.layer(x: 2, y: 0) == 2)
    }
}
