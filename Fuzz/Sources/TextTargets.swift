import RHRCore
@testable import RHRDashboard
import RHRScreen

/// The string gate and the legend's layout over any bytes. The first two bytes choose the legend's
/// rectangle; the rest, split at 0x1E (record separator), are up to nine writers' names, of either store, shown or
/// hidden. What must hold: a flaw is the first control character and nothing else is one; visible text holds none
/// and escaping it again changes nothing; a cut name is a prefix within the bound that says how long it was; the
/// legend places every writer once, inside its rectangle, in time that does not grow with the names (libFuzzer's
/// -timeout catches one that does).
enum TextGateTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 2 else { return }
        let width = 10 + Int(bytes[0]) % 190, height = 1 + Int(bytes[1]) % 6
        let parts = bytes.dropFirst(2).split(separator: 0x1E, omittingEmptySubsequences: false).prefix(9)
        let names = parts.map { String(decoding: UnsafeRawBufferPointer(rebasing: $0), as: UTF8.self) }
        for name in names { gate(name) }

        let writers = names.enumerated().map { i, name in
            ChartLegend.Writer(store: i % 3 == 2 ? .healthConnect : .healthKit, name: name, visible: i % 4 != 3, slot: i)
        }
        for unicode in [true, false] {
            let g = Glyphs(unicode: unicode)
            let legend = ChartLegend(writers: writers.map { ChartLegend.Writer(store: $0.store, name: g.text($0.name), visible: $0.visible, slot: $0.slot) },
                                     markers: [[Span("▪ marker")]], in: Rect(x: 0, y: 0, width: width, height: height), glyphs: g)
            let placed = legend.entries.compactMap(\.writer)
            check(Set(placed).count == placed.count, "a writer placed twice: \(placed)")
            for entry in legend.entries {
                check(entry.row >= 0 && entry.row < height && entry.x >= 1, "an entry outside the legend: \(entry.row), \(entry.x)")
                // Wide enough for any entry's fixed parts: nothing runs past the right edge.
                if width >= 40 { check(entry.x + entry.width <= width, "an entry past the edge: \(entry.x) + \(entry.width) > \(width)") }
            }
            var buffer = ScreenBuffer(size: TerminalSize(width: width, height: height))
            for entry in legend.entries { StyledLine(entry.spans).draw(in: &buffer, x: entry.x, y: entry.row, clip: buffer.bounds) }
            for column in [1, width / 2, width - 1] {
                let cut = TextFit.truncate(names.first ?? "", column, ellipsis: g.ellipsis)
                check(DisplayWidth.of(cut) <= column, "truncated to \(column) columns, takes \(DisplayWidth.of(cut))")
            }
        }
    }

    private static func gate(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        if let flaw = TextGate.flaw(in: text) {
            check(TextGate.isControl(scalars[flaw.scalarIndex]), "the flaw is not a control character")
            check(!scalars[..<flaw.scalarIndex].contains(where: TextGate.isControl), "the flaw is not the first")
            if case .nul = flaw { check(scalars[flaw.scalarIndex] == "\u{0}", "a NUL that is not one") }
        } else {
            check(!scalars.contains(where: TextGate.isControl), "a control character the gate let through")
        }
        let visible = TextGate.visible(text)
        check(TextGate.flaw(in: visible) == nil, "visible text holds a control character")
        check(TextGate.visible(visible) == visible, "escaping visible text changed it")
        let bounded = TextGate.bounded(text)
        check(bounded.text.utf8.count <= TextGate.maxBytes, "a cut name over the bound")
        check(text.utf8.starts(with: bounded.text.utf8), "a cut name that is not the start of the name")
        check((bounded.fullBytes == nil) == (text.utf8.count <= TextGate.maxBytes), "a cut name without its length")
        check(bounded.fullBytes.map { $0 == text.utf8.count } ?? true, "a cut name with a wrong length")
        check(TextGate.clipped(text).utf8.count <= TextGate.maxBytes, "a clipped name over the bound")
    }

    private static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("text-gate: \(message())") }
    }
}
