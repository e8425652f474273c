import Foundation
import RHRCore
import RHRScreen

/// The cursor day in full: each writer's raw samples (time window with its offset, the value as delivered and
/// its unit, device, recording method, created or last-modified time, flags) under what its number is
/// (`DetailWriterFacts.swift`), the sedentary context (R8), and the revision history (R4).
enum DetailView {
    struct Model {
        /// The samples, values, heart rate and revisions, looked up for `day`.
        var index: DashboardIndex
        var cursor: PaneCursor
        var aggregation: Aggregation
        /// Rows scrolled away at the top (more than there are is fine).
        var scroll: Int
        /// The writer `f` follows (`DashboardState.bandWriterIndex`): the one whose derivation, lateness and Health
        /// Connect priority are given in full; the others get their derivation's short phrase.
        var focusedWriter: Int? = nil
    }

    static func lines(_ model: Model, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        let index = model.index
        let day = model.cursor.day
        var out: [StyledLine] = []
        let samples = index.samples(on: day)
        let thisYear = model.cursor.today.year

        if samples.isEmpty {
            out.append(StyledLine(" No resting value on \(DayText.long(day)).", .muted))
            let (before, after) = index.neighbours(of: day)
            var near: [Span] = []
            if let before { near.append(Span(" Earlier: \(DayText.long(before))", .muted)) }
            if let after { near.append(Span("\(near.isEmpty ? " " : "   ")Later: \(DayText.long(after))", .muted)) }
            if !near.isEmpty { out.append(StyledLine(near)) }
        }

        var start = 0
        while start < samples.count {
            let writer = samples[start].sample.writer
            var end = start
            while end < samples.count && samples[end].sample.writer == writer { end += 1 }
            let w = index.writers.firstIndex(of: writer) ?? 0
            let value = index.value(writer: w, day: day, aggregation: model.aggregation)
            let slot = index.slots.indices.contains(w) ? index.slots[w] : 0
            var head: [[Span]] = [[Span(String(g.series(slot)), .series(slot)), Span(" " + g.shortName(writer), .bold)]]
            if let value, value.bpm != nil {
                head.append([Span("\(model.aggregation.rawValue) \(value.bpmText)")])
            }
            let facts = index.facts.indices.contains(w) ? index.facts[w] : nil
            head.append([Span(provenance(writer, samples: samples[start..<end], facts: facts, glyphs: g), .muted)])
            if writer.store == .healthConnect { head.append([Span(g.text(writer.shownName), .muted)]) }
            let focused = model.focusedWriter == w
            if !focused, let facts { head.append([Span(g.text(facts.derivation.short), .muted)]) }
            // The gate cut the name (`TextGate`): how long it was, so a cut name is never taken for the whole.
            if let full = writer.nameBytes {
                head.append([Span("name cut: \(Wording.grouped(full)) bytes, the first \(writer.name.utf8.count) kept", .muted)])
            }
            out += Flow.lines(head, width: width, gap: 2, indent: 3, firstIndent: 1, ellipsis: g.ellipsis)
            var about: [String] = []
            if let bundle = writer.bundleIdentifier { about.append(bundle) }
            if let product = writer.productType { about.append(product) }
            if !about.isEmpty { out.append(StyledLine("     " + g.text(about.joined(separator: "  ")), .muted)) }
            // R2: the spellings of the name that were folded into this writer.
            if let spellings = index.data.writerSpellings[writer.key], !spellings.isEmpty {
                let text = "also written " + spellings.map(WriterNameRule.visible).joined(separator: ", ")
                for (i, line) in TextFit.wrap(g.text(text), width - 5, ellipsis: g.ellipsis).enumerated() {
                    out.append(StyledLine((i == 0 ? "     " : "       ") + line, .muted))
                }
            }
            // R15 and the writer's lateness, for the writer `f` follows (`DetailWriterFacts.swift`).
            if focused {
                out += Self.facts(writer, samples: samples[start..<end], facts: facts, lateness: index.lateness(writer: w),
                                  priority: index.appPriority,
                                  thisYear: thisYear, width: width, glyphs: g)
            }
            // R12: the samples of roads other than the one deciding the writer's day stand aside.
            let deciding = DaySeries.decidingRoad(samples[start..<end])
            for s in samples[start..<end] {
                var sampleItems = items(s, writer: slot, machineZone: index.data.machineZone, thisYear: thisYear, glyphs: g)
                if let deciding, s.road != deciding {
                    let when = deciding.asOf.map { " " + AsOfWording.phrase($0.at(index.data.machineZone), thisYear: thisYear) } ?? ""
                    sampleItems.append([Span("superseded: \(deciding.stream)\(when) decides this day (\(s.stream))", .muted)])
                }
                out += Flow.lines(sampleItems, width: width, gap: 2, indent: 5, firstIndent: 3, ellipsis: g.ellipsis)
            }
            start = end
        }

        let heartRate = index.heartRate(on: day)
        if !heartRate.isEmpty {
            out.append(StyledLine(""))
            out.append(StyledLine(" Heart rate that day (context, not resting)", .bold))
            var merged: [WriterKey: HeartRateDaySummary] = [:]
            for h in heartRate {
                if merged[h.writer.key] == nil { merged[h.writer.key] = h } else { merged[h.writer.key]!.merge(h) }
            }
            for h in merged.values.sorted(by: { $0.writer < $1.writer }) {
                var text = "\(h.writer.store.displayName) \(g.dot) \(h.writer.displayName): "
                if let low = h.sedentaryMin, let median = h.sedentaryMedian {
                    text += "sedentary lowest \(RestingValue.format(low)), median \(RestingValue.format(median)) bpm "
                        + "of \(h.sedentary) sedentary; "
                }
                text += "\(Wording.count(h.total, "sample")) (\(h.sedentary) sedentary, \(h.active) active, \(h.notSet) not set)"
                for (i, line) in TextFit.wrap(g.text(text), width - 5, ellipsis: g.ellipsis).enumerated() {
                    out.append(StyledLine((i == 0 ? "   " : "     ") + line, .muted))
                }
            }
        }

        let revisions = index.revisions(on: day)
        if !revisions.isEmpty {
            out.append(StyledLine(""))
            out.append(StyledLine(" Revision history", .bold))
            for r in revisions.sorted(by: { ($0.at, $0.writer) < ($1.at, $1.writer) }) {
                let slot = index.writers.firstIndex(of: r.writer).map { index.slots[$0] }
                let glyph = slot.map { String(g.series($0)) + " " } ?? ""
                let text = g.text("\(g.shortName(r.writer)): \(r.text(thisYear: thisYear, zone: index.data.machineZone))")
                // Wrapped under its text, never cut: where it was read and when come last.
                let lead = 3 + DisplayWidth.of(glyph)
                for (i, line) in TextFit.wrap(text, width - lead, ellipsis: g.ellipsis).enumerated() {
                    var spans = [Span(String(repeating: " ", count: i == 0 ? 3 : lead))]
                    if i == 0, let slot { spans.append(Span(glyph, .series(slot))) }
                    spans.append(Span(line))
                    out.append(StyledLine(spans))
                }
            }
        }
        return out
    }

    /// One sample of the writer in slot `w` (its glyph and colour) as flowing items.
    static func items(_ s: DaySample, writer w: Int, machineZone: TimeZone, thisYear: Int, glyphs g: Glyphs) -> [[Span]] {
        let sample = s.sample
        let zone = sample.timeZoneIdentifier.flatMap(ZoneNames.zone)
        let offset = sample.offsetSeconds
            ?? zone?.secondsFromGMT(for: sample.start)
            ?? machineZone.secondsFromGMT(for: sample.start)
        let offsetText = Timestamp.offsetText(offset)
        var window: String
        let startDay = DayText.day(sample.start, offset: offset), endDay = DayText.day(sample.end, offset: offset)
        if sample.start == sample.end {
            window = DayText.clock(sample.start, offset: offset)
            if startDay != s.day { window = startDay.shortText + " " + window }
        } else if startDay == endDay && startDay == s.day {
            window = DayText.clock(sample.start, offset: offset) + g.dash + DayText.clock(sample.end, offset: offset)
        } else {
            window = "\(startDay.shortText) \(DayText.clock(sample.start, offset: offset)) \(g.dash) "
                + "\(endDay.shortText) \(DayText.clock(sample.end, offset: offset))"
        }
        window += " " + offsetText
        if s.offsetAssumed { window += " (assumed)" }
        if let id = sample.timeZoneIdentifier { window += " " + id }

        var items: [[Span]] = [[Span(window)]]
        var value = "\(RestingValue.format(sample.value)) \(sample.unit)"
        if let bpm = sample.bpm, bpm != sample.value { value += " = \(RestingValue.format(bpm, isMean: true)) bpm" }
        items.append([Span(g.text(value), .bold)])
        if let device = sample.device, !device.isEmpty { items.append([Span(g.text(device.summary), .muted)]) }
        if let method = sample.recordingMethod { items.append([Span(method.words, .muted)]) }
        if sample.isDuplicate { items.append([Span("duplicate: its writer gave this window another value too", .muted)]) }
        if let created = sample.created {
            items.append([Span("created \(moment(created, offset: offset, thisYear: thisYear))", .muted)])
        }
        if let modified = sample.lastModified {
            items.append([Span("modified \(moment(modified, offset: offset, thisYear: thisYear))", .muted)])
        }
        if s.provisional {
            // When it was read is rhr's moment, in the machine's clock; the sample's own times above keep its offset.
            let read = s.asOf.map { ", read \(DayText.moment($0.at(machineZone), thisYear: thisYear))" } ?? ""
            // The writer's own hollow glyph, as the chart draws this value.
            items.append([Span(String(g.provisional(w)), g.provisionalStyle(w)), Span(" \(DayFlag.provisional.word)\(read)")])
        }
        if s.offsetAssumed { items.append([Span("\(DayFlag.offsetAssumed.word): no zone offset, this machine's used")]) }
        if !s.isInRange { items.append([Span("\(g.outOfRange) \(DayFlag.outOfRange.word): \(DayFlag.outOfRange.note)")]) }
        if s.implausibleDate {
            let why = PlausibleTimeRule.problem(start: sample.start, end: sample.end, asOf: s.asOf) ?? "implausible"
            items.append([Span("\(g.outOfRange) \(DayFlag.implausibleDate.word) (\(why)): \(DayFlag.implausibleDate.note)")])
        }
        return items
    }

    static func moment(_ date: Date, offset: Int, thisYear: Int) -> String {
        DayText.moment(Timestamp(date: date, offsetSeconds: offset), thisYear: thisYear)
    }

    /// How far the pane can scroll in `rect`.
    static func maxScroll(_ model: Model, in rect: Rect, glyphs: Glyphs) -> Int {
        max(0, lines(model, width: rect.width - 1, glyphs: glyphs).count - (rect.height - 1))
    }

    /// The pane's title: the day, whether it just changed, what the pane holds (`draw` adds how far it scrolls).
    static func title(_ model: Model, glyphs g: Glyphs) -> [Span] {
        var title = [Span(" \(DayText.long(model.cursor.day))", model.cursor.focused ? .focusedTitle : .bold)]
        // Before the pane's title, which gives way first on a narrow pane.
        if model.cursor.dayChanged {
            title.append(Span("  \(g.changed) just changed", .title))
        }
        title.append(Span("  raw samples and revisions", .muted))
        return title
    }

    /// The columns the pane needs, at most `limit`: the narrowest at which its lines come out as they do at `limit`,
    /// from its widest line (the title among them) and the free column at the right. Whatever the lines are, the
    /// layout gives the pane no more than this.
    static func width(_ model: Model, limit: Int, glyphs: Glyphs) -> Int {
        func texts(_ width: Int) -> [String] { lines(model, width: width - 1, glyphs: glyphs).map { $0.spans.map(\.text).joined() } }
        let all = texts(limit)
        let widest = min(limit, all.reduce(StyledLine(title(model, glyphs: glyphs)).width) { max($0, DisplayWidth.of($1)) } + 1)
        // A paragraph may wrap a few columns before its widest line's end: the narrowest width that wraps it the
        // same, looked for in steps that double from there (it is near), then by halving between the last two.
        func fits(_ width: Int) -> Bool { width >= limit || texts(width) == all }
        var low = widest, step = 1
        while !fits(low + step - 1) {
            low += step
            step *= 2
        }
        var high = min(limit, low + step - 1)
        while low < high {
            let middle = (low + high) / 2
            if fits(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    static func draw(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        buffer.fill(rect)
        var title = title(model, glyphs: g)
        let body = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
        let all = lines(model, width: rect.width - 1, glyphs: g)
        let maxScroll = max(0, all.count - body.height)
        let scroll = min(model.scroll, maxScroll)
        if maxScroll > 0 {
            title.append(Span("  more \(scroll > 0 ? (g.unicode ? "↑" : "^") : "")\(scroll < maxScroll ? (g.unicode ? "↓" : "v") : "")",
                              .muted))
        }
        buffer.drawRow(StyledLine(title), in: rect, row: 0, ellipsis: g.ellipsis)
        for (row, line) in all.dropFirst(scroll).prefix(body.height).enumerated() {
            line.draw(in: &buffer, x: body.x, y: body.y + row, clip: body)
        }
    }
}
