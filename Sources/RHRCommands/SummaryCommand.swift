import Foundation
import RHRCore
import RHRStore
import RHRSystem

/// `rhr summary`: a plain table of the last days with data, one column per writer, flags spelled out.
/// Also what `rhr` prints when its output is not a terminal.
enum SummaryCommand {
    static let command = Command(
        name: "summary", operands: .none,
        summary: "print a plain table of the most recent days",
        options: [
            AggregationOption.spec,
            .value("days", "N", "how many days with data to show (default 14)"),
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let args = invocation.arguments
        let aggregation = try AggregationOption.parse(args)
        var count = 14
        if let text = args.value("days") {
            guard let n = Int(text), n > 0 else { throw UsageError("--days must be a positive number, not \(text)") }
            count = n
        }
        let store = try openStoreForReading(invocation)
        invocation.output.write(try report(store: store, aggregation: aggregation, days: count,
                                           today: MachineClock.today(in: invocation.machineZone), width: width(invocation)))
        return 0
    }

    /// The width the summary fits on this invocation's stdout (`SummaryLayout.width`).
    static func width(_ invocation: Invocation) -> Int? {
        width(environment: invocation.environment, stdoutIsTerminal: invocation.output.stdoutIsTerminal)
    }

    static func width(environment: [String: String], stdoutIsTerminal: Bool) -> Int? {
        SummaryLayout.width(environment: environment, stdoutIsTerminal: stdoutIsTerminal)
    }

    /// `today` dates the R10 note on an idle changes token; `width`: the terminal's, which every line fits (nil: a
    /// pipe, as wide as it is).
    static func report(store: HealthDatabase, aggregation: Aggregation, days count: Int,
                       today: LocalDay, width: Int? = nil) throws -> String {
        let text = try lines(store: store, aggregation: aggregation, days: count, today: today, width: width)
        return text.flatMap { $0.table ? [$0.text] : SummaryLayout.wrapped($0.text, width: width) }.joined(separator: "\n") + "\n"
    }

    /// The summary's lines, the table's fitted already (`table`), the rest to be wrapped.
    private static func lines(store: HealthDatabase, aggregation: Aggregation, days count: Int, today: LocalDay,
                              width: Int?) throws -> [(text: String, table: Bool)] {
        // One snapshot: the counts, the streams, the values and the revisions all describe the same store.
        let (contents, streams, samples, revisions, watches) = try store.read { tx throws(StoreError) in
            (try tx.contents(heartRate: try tx.heartRateDays()), try tx.streams(), try tx.samples(), try tx.revisions(),
             try tx.watchWriters())
        }
        var lines: [String] = []
        let tagged = { (lines: [String]) in lines.map { (text: $0, table: false) } }
        let thisYear = today.year
        // R10's notes, the ones `rhr status` prints, in every state with a road: they can be why nothing is here.
        let permissionNotes = streams.flatMap { stream in
            stream.permissionNotes(today: today).map { "\(stream.noteName): \($0)" }
        }
        switch DataDiagnosis(contents, streams: streams) {
        case .noHeartData(let imported):
            lines.append(currency(streams, thisYear: thisYear, zone: store.machineZone))
            lines += DataDiagnosis.explanation(imported: imported, thisYear: thisYear, zone: store.machineZone)
            lines += permissionNotes
            lines.append("Import an export with resting heart rate or heart rate:  rhr import export.zip")
            lines.append(wellness)
            return tagged(lines)
        case .noData:
            lines.append("No data yet.")
            lines.append("Import an export:  rhr import export.zip   (Apple Health, Health Connect, Health Auto Export)")
            lines.append("Or send batches:   rhr push batches.jsonl  (to a running rhr daemon)")
            lines.append("Or phones post:    rhr daemon --http ADDR:PORT  (docs/phone-feeds.md: Health Auto Export, HC Webhook)")
            lines.append(wellness)
            return tagged(lines)
        case .noRestingWriter(let stores):
            lines.append(currency(streams, thisYear: thisYear, zone: store.machineZone))
            for s in stores { lines.append(DataDiagnosis.explanation(s, streams: streams)) }
            lines += permissionNotes
            lines.append(wellness)
            return tagged(lines)
        case .resting(let without):
            lines.append(currency(streams, thisYear: thisYear, zone: store.machineZone))
            for s in without { lines.append(DataDiagnosis.explanation(s, streams: streams)) }
            lines += permissionNotes
        }

        let values = DaySeries(samples).values(by: aggregation)
        // R13: implausible dates never set a range. The range is of the last days with a plausibly dated sample, as the
        // dashboard's header's is; days of implausibly dated values only are shown after it, flagged, a few of them,
        // and the others named in a line of their own.
        let plausibleDays = Set(samples.lazy.filter { !$0.implausibleDate }.map(\.day))
        let valueDays = Set(values.map(\.day))
        let inRange = valueDays.intersection(plausibleDays).sorted().suffix(count)
        let implausibleOnly = valueDays.subtracting(plausibleDays).sorted()
        guard let first = inRange.first, let last = inRange.last else { return tagged(lines + implausibleLine(implausibleOnly)) }
        let flaggedOnly = implausibleOnly.filter { $0 >= first }
        let shownDays = (Array(inRange) + flaggedOnly.prefix(Self.implausibleRows)).sorted()
        // A column for each writer with a value in the days shown: none is empty in every row.
        let writers = Array(Set(values.filter { $0.day >= first }.map(\.writer))).sorted()
        lines.append("\(aggregation.words) · \(first) … \(last)")
        lines.append("")
        var byKey: [String: DayValue] = [:]
        for v in values where v.day >= first { byKey["\(v.day) \(v.writer.key)"] = v }
        let headings = ["date"] + writers.map(shortName)
        var rows: [[String]] = []
        var usedFlags = Set<DayFlag>()
        var provisionalReads: [String] = []   // R3: when the provisional values shown were read
        for d in shownDays {
            var row = [d.description]
            for w in writers {
                guard let v = byKey["\(d) \(w.key)"] else { row.append(""); continue }
                let flags = DayFlag.of(v)
                usedFlags.formUnion(flags)
                if v.provisional, let read = v.asOf?.at(store.machineZone).text(thisYear: thisYear), !provisionalReads.contains(read) { provisionalReads.append(read) }
                row.append((v.bpmText.isEmpty ? "–" : v.bpmText) + (flags.isEmpty ? "" : " " + flags.map(\.letter).joined()))
            }
            rows.append(row)
        }
        var result = tagged(lines) + SummaryLayout.table(headings: headings, rows: rows, width: width).map { (text: $0, table: true) }
        lines = []
        let shownRevisions = recentChains(revisions.filter { $0.day >= first && $0.day <= last })
        if !shownRevisions.isEmpty {
            lines.append("")
            lines.append("revisions (values deleted or replaced, kept for the record):")
            for r in shownRevisions { lines.append("  \(r.day) \(shortName(r.writer)): \(r.text(thisYear: thisYear, zone: store.machineZone))") }
        }
        // The writers left out, so none goes unmentioned: each with its last day.
        var lastDays: [WriterKey: (writer: Writer, day: LocalDay)] = [:]
        for v in values where v.day < first { lastDays[v.writer.key] = (v.writer, max(v.day, lastDays[v.writer.key]?.day ?? v.day)) }
        let shown = Set(writers.map(\.key))
        let absent = lastDays.values.filter { !shown.contains($0.writer.key) }.sorted { $0.writer < $1.writer }
        if !absent.isEmpty {
            lines.append("")
            lines.append("No value in these days: " + absent.map { "\(shortName($0.writer)) (last \($0.day))" }.joined(separator: ", "))
        }
        lines += implausibleLine(Array(flaggedOnly.dropFirst(Self.implausibleRows)))
        lines.append("")
        lines += writerLines(writers, samples: samples, watches: watches, streams: streams)
        // The letters and words of the dashboard's per-source columns (`DayFlag`).
        let read = provisionalReads.isEmpty ? "" : " (read \(Wording.list(provisionalReads)))"
        var legend = DayFlag.allCases.filter(usedFlags.contains).map { "\($0.letter) \($0.legend)\($0 == .provisional ? read : "")" }
        if rows.joined().contains(where: { $0.hasPrefix("–") }) { legend.append("– no valid sample that day") }
        if !legend.isEmpty { lines.append(legend.joined(separator: " · ")) }
        lines.append(wellness)
        result += tagged(lines)
        return result
    }

    /// The most days of implausibly dated values only shown as rows (R13: flagged, outside the range).
    static let implausibleRows = 5

    /// "Kept, not shown: values of implausible dates only (R13) on 2098-12-30": such days not shown as rows, so that
    /// none goes unmentioned; the first five and how many more.
    static func implausibleLine(_ days: [LocalDay]) -> [String] {
        guard !days.isEmpty else { return [] }
        let named = days.prefix(5).map(\.description).joined(separator: ", ")
        return ["", "Kept, not shown: values of implausible dates only (R13) on " + named
                + (days.count > 5 ? " and \(Wording.count(days.count - 5, "more day"))" : "")]
    }

    /// The history of the most recent writer-days with revisions, each day's chain whole ("61 → 59", "59 → 58",
    /// …), up to about `limit` lines; by day, then as `RevisionEntry.precedes` orders them.
    static func recentChains(_ revisions: [RevisionEntry], limit: Int = 8) -> [RevisionEntry] {
        var chains: [WriterKey: [LocalDay: [RevisionEntry]]] = [:]
        for r in revisions { chains[r.writer.key, default: [:]][r.day, default: []].append(r) }
        let keys = chains.flatMap { writer, days in days.keys.map { (day: $0, writer: writer) } }
            .sorted { ($0.day, $0.writer) > ($1.day, $1.writer) }
        var taken: [RevisionEntry] = []
        for key in keys where taken.count < limit {
            taken = chains[key.writer]![key.day]!.sorted(by: RevisionEntry.precedes) + taken
        }
        return taken
    }

    /// Each writer: where its number comes from (R11) and what it is in its maker's words, with the page
    /// that says so and the registry id `rhr export` writes (R15); then Health Connect's own priority for vitals where
    /// an export gave one. `watches`: the store's marks; the samples' devices tell a Withings scale.
    static func writerLines(_ writers: [Writer], samples: [DaySample], watches: Set<WriterKey>, streams: [StreamState]) -> [String] {
        var devices: [WriterKey: Set<Device?>] = [:]
        for s in samples { devices[s.sample.writer.key, default: []].insert(s.sample.device) }
        var lines = writers.map { w in
            let isWatch = watches.contains(w.key)
            let d = Derivation.of(writer: w, devices: devices[w.key] ?? [], isAppleWatch: isWatch)
            let source = d.isDocumented ? d.sources.first.map { ", as \($0.text) says" } ?? "" : ""
            return TextGate.visible("\(shortName(w)): \(w.provenance(isAppleWatch: isWatch)); \(d.short)\(source) (\(d.id))")
        }
        if let priority = AppPriority.newest(in: streams) {
            let apps = Dictionary(writers.filter { $0.store == .healthConnect }.map { ($0.name, $0.shortName) }) { a, _ in a }
            lines.append(TextGate.visible(priority.listWords { apps[$0] ?? $0 }))
        }
        return lines
    }

    /// "HK Jane’s Apple Watch", "HC Oura": the column heading; the legend below names the package.
    /// Control characters escaped here, before the columns are measured (`TextGate.visible`).
    static func shortName(_ w: Writer) -> String {
        TextGate.visible("\(w.store == .healthKit ? "HK" : "HC") \(w.shortName)")
    }

    /// "HealthKit as of 14 Mar 21:00 · Health Connect as of 21 Mar 09:00"; "HealthKit as of 19 Jul 2019 10:36".
    /// In the machine's clock (`zone`), as the dashboard's header: each phone's own offset could set two stores
    /// read at one instant an hour apart.
    static func currency(_ streams: [StreamState], thisYear: Int, zone: TimeZone) -> String {
        AsOfWording.currency(streams, thisYear: thisYear, zone: zone) ?? "No data yet."
    }

    static let wellness = "Wellness information, not medical advice."
}
