// A report of the trend as plain values: what `rhr report` and the dashboard's `p` draw on a page.
import Foundation
import RHRCore

/// What a report of the trend holds (docs/design.md section 6, "A report to keep or share"), made from the index the
/// dashboard draws, so the two never disagree (one source of truth): its per-day values under the aggregation (R7),
/// its writers' lasting numbers with their glyphs, their derivations (R15), provenance (R11) and flags, the 7-day
/// mean and the usual range as the dashboard's aids work them out, its currency line and its notes (R9, R10).
/// Pure: a drawing module (RHRReport) lays it out. Nothing here depends on the day it is made: the notes are those
/// of the day of the newest read, so the same store gives the same report whenever it is made.
public struct TrendReport: Sendable {
    /// What to report: the period, the aggregation, the writers and the aids, as `rhr report`'s options or the
    /// dashboard's view give them.
    public struct Request: Sendable, Hashable {
        /// Nil: the first (last) day with a resting value.
        public var from: LocalDay?
        public var to: LocalDay?
        /// The aggregation, the hidden writers, the mean and the usual range (and the writer it follows; nil: the
        /// shown writer with the most days in the period), as the dashboard keeps them; zoom and whiskers play no
        /// part on paper.
        public var view: ViewSettings

        public init(from: LocalDay? = nil, to: LocalDay? = nil, view: ViewSettings = ViewSettings()) {
            self.from = from
            self.to = to
            self.view = view
        }

        /// The dashboard's view: the days of the chart's window (from its first to its last bucket, at any zoom),
        /// its aggregation, visible writers, mean and usual range, with the writer the range follows.
        public init(_ state: DashboardState) {
            let window = ChartWindow(state)
            var view = state.settings
            view.bandWriter = state.showBand ? state.bandWriterIndex.map { state.index.writers[$0].key } : nil
            self.init(from: window.firstDay, to: window.lastDay, view: view)
        }

        public var aggregation: Aggregation { view.aggregation }
    }

    /// One writer as the report shows it.
    public struct Series: Sendable {
        public var writer: Writer
        /// Its lasting number (1-based; `DashboardIndex.slots`): the dashboard's key, glyph and colour for it.
        public var number: Int
        /// Its glyph, and the hollow form a provisional value (R3) is drawn with, as the dashboard draws them.
        public var glyph: Character
        public var provisionalGlyph: Character
        /// "Oura (com.ouraring.oura)", made visible (control characters shown, R2).
        public var name: String
        /// "Oura": the name legends use (`Writer.shortName`), made visible.
        public var shortName: String
        /// The store's name: "HealthKit", "Health Connect" (R1).
        public var store: String
        /// "HealthKit estimate", "written by Oura (Health Connect)": the detail pane's label (R11).
        public var provenance: String
        /// What its maker documents its number to be, with the pages (R15).
        public var derivation: Derivation
        /// Its values in the period, by day (days with only out-of-range or implausible samples too: they carry flags).
        public var values: [DayValue]
        /// The 7-day rolling mean on the period's days, when asked for (`RollingMean`).
        public var mean: [Point]

        /// The values that count (`ChartedValue`, R6, R13), by day: the points the chart draws.
        public var points: [Point] {
            values.compactMap { v in ChartedValue.bpm(v).map { Point(day: v.day, bpm: $0, provisional: v.provisional) } }
        }

        /// Days with a value that counts.
        public var days: Int { values.count { ChartedValue.bpm($0) != nil } }

        /// Its lowest and highest day value in the period.
        public var range: (low: Double, high: Double)? {
            let bpms = values.compactMap(ChartedValue.bpm)
            guard let low = bpms.min(), let high = bpms.max() else { return nil }
            return (low, high)
        }

        /// "14 days with a value, 52–61 bpm", "1 day with a value, 58 bpm", "no value that counts".
        public var daysWords: String {
            guard let (low, high) = range else { return "no value that counts" }
            let format = { RestingValue.format($0, isMean: self.values.first?.aggregation == .mean) }
            return "\(Wording.count(days, "day")) with a value, "
                + (low == high ? "\(format(low)) bpm" : "\(format(low))–\(format(high)) bpm")
        }

        /// The days a flag marks, by day.
        public func days(flagged flag: DayFlag) -> [LocalDay] {
            values.filter { flag.count(in: $0) > 0 }.map(\.day)
        }
    }

    /// A day's value on the chart.
    public struct Point: Sendable, Hashable {
        public var day: LocalDay
        public var bpm: Double
        /// R3: Apple may still replace it.
        public var provisional: Bool
    }

    /// One day of the usual range (`UsualRange`): the middle half of a writer's values in the 28 days ending on it.
    public struct BandDay: Sendable, Hashable {
        public var day: LocalDay
        public var lower: Double
        public var median: Double
        public var upper: Double
    }

    /// A flag that marks values in the period, what it means, and whose days it marks.
    public struct FlagNote: Sendable {
        public var flag: DayFlag
        /// Why the values carry it: "Apple may still replace this estimate … (read as of 21 Mar 2026 21:30 +00:00)".
        public var meaning: String
        /// One entry per writer it marks: its short name and "2 days (20 Mar 2026, 21 Mar 2026)".
        public var writers: [(name: String, days: String)]
    }

    /// Why there is nothing to draw (R9: never an empty chart): a title and paragraphs in the dashboard's words.
    public struct Nothing: Sendable, Equatable {
        public var title: String
        public var paragraphs: [String]
    }

    public let request: Request
    /// The period drawn; nil when there is nothing to draw.
    public let period: (from: LocalDay, to: LocalDay)?
    /// The writers drawn, by store then number (the dashboard's order).
    public let series: [Series]
    /// The usual range drawn behind the lines, and whose it is (an index into `series`).
    public let band: (series: Int, days: [BandDay])?
    /// Each store's newest read: "HealthKit as of 21 Mar 2026 21:30 +00:00" (R3).
    public let currency: [String]
    public let flags: [FlagNote]
    /// The dashboard's notes on this data (R9 for a store without a resting writer, R10, feeds), as on `noteDay`.
    public let notes: [String]
    /// Writers with values in the period that were left out (hidden): named, so a page never hides that they exist.
    public let leftOut: [String]
    /// Set when there is no chart to draw.
    public let nothing: Nothing?
    /// The out-of-range mark (R6), as the dashboard draws it.
    public let outOfRangeGlyph: Character
    /// Up to this many writers share one chart; more get a panel each (the dashboard draws all of them in full up to
    /// this many, `ChartView.fullWriters`, so the lines do not tangle).
    public static let writersInOneChart = ChartView.fullWriters

    /// How far before its first day a report reads: the usual range looks back 28 days, the mean 7.
    public static let lookBackDays = UsualRange.days

    /// R11's note, as help gives it.
    public static let wellness = HelpView.wellnessNote

    /// The day the notes are worked out for: the newest read's, so the report depends on the store alone.
    public let noteDay: LocalDay?

    public init(_ index: DashboardIndex, _ request: Request) {
        self.request = request
        let g = Glyphs(unicode: true)
        outOfRangeGlyph = g.outOfRange
        let zone = index.data.machineZone
        currency = index.storeAsOf.map { "\($0.store.displayName) \(AsOfWording.phrase($0.asOf, thisYear: 0))" }
        let noteDay = index.storeAsOf.map(\.asOf.localDay).max()
        self.noteDay = noteDay

        let from = request.from ?? index.firstRestingDay
        let to = request.to ?? index.lastRestingDay
        var series: [Series] = []
        var leftOut: [String] = []
        if let from, let to, from <= to {
            for (w, writer) in index.writers.enumerated() {
                let all = index.values(writer: w, aggregation: request.aggregation)
                let start = index.firstIndex(writer: w, onOrAfter: from, aggregation: request.aggregation)
                let values = Array(all[start...].prefix { $0.day <= to })
                guard !values.isEmpty else { continue }
                let name = g.text(writer.displayName)
                if request.view.hidden.contains(writer.key) {
                    leftOut.append("\(name) (\(writer.store.displayName))")
                    continue
                }
                let slot = index.slots[w]
                let facts = index.facts[w]
                series.append(Series(
                    writer: writer, number: slot + 1, glyph: g.series(slot), provisionalGlyph: g.provisional(slot),
                    name: name, shortName: g.shortName(writer), store: writer.store.displayName,
                    provenance: DetailView.provenance(writer, samples: [], facts: facts, glyphs: g),
                    derivation: facts.derivation, values: values,
                    mean: request.view.showMean ? RollingMean.series(all, from: from, to: to).map {
                        Point(day: $0.day, bpm: $0.bpm, provisional: false)
                    } : []))
            }
        }
        self.series = series
        self.leftOut = leftOut
        if let from, let to, !series.isEmpty {
            period = (from, to)
            nothing = nil
        } else {
            period = nil
            nothing = Self.nothing(index, from: from, to: to, leftOut: !leftOut.isEmpty)
        }

        if request.view.showBand, let (from, to) = period {
            let chosen = request.view.bandWriter.flatMap { key in series.firstIndex { $0.writer.key == key } }
            let most = series.indices.max { series[$0].days < series[$1].days }
            if let b = chosen ?? most, let w = index.writers.firstIndex(of: series[b].writer) {
                let days = UsualRange.series(index.values(writer: w, aggregation: request.aggregation), from: from, to: to)
                band = (b, days.map { BandDay(day: $0.day, lower: $0.lower, median: $0.median, upper: $0.upper) })
            } else {
                band = nil
            }
        } else {
            band = nil
        }

        flags = Self.flagNotes(series, zone: zone)
        notes = noteDay.map { index.notices(today: $0) } ?? []
    }

    /// What a report holds, in a line: "8 Mar – 21 Mar 2026, 5 writers, one value per day: latest", or why it has no
    /// chart.
    public var summary: String {
        guard let (from, to) = period else { return nothing?.title ?? "" }
        return "\(Self.periodWords(from, to)), \(Wording.count(series.count, "writer")), \(request.aggregation.words)"
    }

    /// R7 in words: the aggregation and what it takes of a day's samples.
    public var aggregationWords: String {
        let how: String
        switch request.aggregation {
        case .latest: how = "the latest sample by end time (ties by creation or last-modified time)"
        case .lowest: how = "the lowest of the day's samples"
        case .mean: how = "the mean of the day's samples"
        }
        return "\(request.aggregation.words.prefix(1).uppercased())\(request.aggregation.words.dropFirst()): \(how); "
            + "out-of-range and implausibly dated samples never enter it."
    }

    /// The aids that are on, for the header: "7-day mean", "usual range of Oura".
    public var aidNames: [String] {
        var names: [String] = []
        if request.view.showMean && period != nil { names.append("7-day mean") }
        if let band { names.append("usual range of \(series[band.series].shortName)") }
        return names
    }

    /// The aids that are on, in sentences (R11: descriptive; the usual range is never called normal).
    public var aidWords: [String] {
        var words: [String] = []
        if request.view.showMean && period != nil {
            words.append("7-day mean: each writer's line is the mean of the 7 days ending on each day, where 4 of them "
                         + "have a value; the day values are dots.")
        }
        if let band {
            words.append("Usual range of \(series[band.series].shortName), in grey: the middle half (first to third quartile) of "
                         + "its values in the 28 days ending on each day, where 14 of them have a value. It describes "
                         + "this writer's own recent values, nothing more.")
        }
        return words
    }

    /// R15: what a writer's number is, in its maker's words (its window and statistic, when it appears where the maker
    /// says, whether it is revised), with the pages that say so; a writer whose maker documents nothing says so.
    public static func derivationWords(_ d: Derivation) -> String {
        var parts = [d.summary]
        if d.isDocumented {
            if let appears = d.appears { parts.append("It appears \(appears).") }
            parts.append(d.revision == .notDocumented ? "Whether it is revised is \(d.revisionWords)." : "It \(d.revisionWords).")
        }
        parts.append("Source: \(d.sourceWords).")
        return parts.joined(separator: " ")
    }

    /// The bpm the chart must hold: every value, mean and band edge drawn.
    public var valueRange: (low: Double, high: Double)? {
        var bpms = series.flatMap { $0.values.compactMap(ChartedValue.bpm) + $0.mean.map(\.bpm) }
        if let band { bpms += band.days.flatMap { [$0.lower, $0.upper] } }
        guard let low = bpms.min(), let high = bpms.max() else { return nil }
        return (low, high)
    }

    /// "21 Mar 2026", "8 Mar – 21 Mar 2026", "8 Mar 2025 – 21 Mar 2026".
    public static func periodWords(_ from: LocalDay, _ to: LocalDay) -> String {
        if from == to { return from.mediumText }
        return (from.year == to.year ? from.shortText : from.mediumText) + " – " + to.mediumText
    }

    /// Each flag that marks a value drawn, with its meaning and the writers and days it marks (up to `listed` days
    /// each, then how many more).
    static func flagNotes(_ series: [Series], zone: TimeZone, listed: Int = 6) -> [FlagNote] {
        DayFlag.allCases.compactMap { flag in
            var writers: [(name: String, days: String)] = []
            var reads: [String] = []
            for s in series {
                let days = s.days(flagged: flag)
                guard !days.isEmpty else { continue }
                let shown = days.prefix(listed).map(\.mediumText)
                let more = days.count > listed ? " and \(days.count - listed) more" : ""
                writers.append((s.shortName, "\(Wording.count(days.count, "day")) (\(shown.joined(separator: ", "))\(more))"))
                if flag == .provisional {
                    for v in s.values where v.provisional {
                        if let read = v.asOf.map({ AsOfWording.phrase($0.at(zone), thisYear: 0) }), !reads.contains(read) {
                            reads.append(read)
                        }
                    }
                }
            }
            guard !writers.isEmpty else { return nil }
            let read = reads.isEmpty ? "" : " (read \(reads.joined(separator: ", ")))"
            return FlagNote(flag: flag, meaning: why(flag) + read, writers: writers)
        }
    }

    /// Why a value carries a flag, for a reader without the rules at hand (R3, R5, R6, R13).
    public static func why(_ flag: DayFlag) -> String {
        switch flag {
        case .provisional:
            return "an Apple Watch estimate for the day its data was read or the day before, which Apple may still replace"
        case .offsetAssumed:
            return "no time-zone offset was recorded, so the machine's zone placed the value on its day"
        case .outOfRange:
            return "a value outside 1–300 bpm was recorded: kept in the store, left out of the day's value and the chart"
        case .implausibleDate:
            return "dated before 2000, more than a day after it was read, or spanning more than 48 hours: kept in the "
                + "store, left out of the day's value and the chart"
        }
    }

    /// R9 and the rest: why a report has no chart, in the words the dashboard's empty state uses.
    static func nothing(_ index: DashboardIndex, from: LocalDay?, to: LocalDay?, leftOut: Bool) -> Nothing {
        switch index.diagnosis {
        case .noData:
            return Nothing(title: "Nothing to draw: the store holds no data.",
                           paragraphs: ["Import an export (rhr import export.zip) or connect a bridge, then make the report again."])
        case .noHeartData(let imported):
            return Nothing(title: "Nothing to draw: no heart data in what was imported.",
                           paragraphs: DataDiagnosis.explanation(imported: imported, thisYear: 0, zone: index.data.machineZone))
        case .noRestingWriter(let stores):
            return Nothing(title: "No resting heart rate to draw.",
                           paragraphs: stores.map { DataDiagnosis.explanation($0, streams: index.data.streams) }
                            + stores.flatMap { DataDiagnosis.reasons($0) }
                            + ["Import an export that has resting values, or connect a bridge that reads them."])
        case .resting:
            let asked = from.flatMap { f in to.map { f <= $0 ? periodWords(f, $0) : "\(f.mediumText) – \($0.mediumText)" } } ?? ""
            if leftOut {
                return Nothing(title: "Nothing to draw: every writer with values in \(asked) is hidden.",
                               paragraphs: ["Show a writer again (1–9 in the dashboard) and make the report again."])
            }
            return Nothing(title: "No resting values in \(asked).",
                           paragraphs: ["Other days hold resting values: a report without --from and --to draws them all."])
        }
    }
}
