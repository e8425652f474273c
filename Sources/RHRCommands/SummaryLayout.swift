import Glibc
import RHRDashboard
import RHRScreen

/// The summary fitted to a terminal's width: words wrap (a line's continuation indented two spaces), and
/// a table wider than the screen is printed in parts, each with the date column, so nothing is left out. Without a
/// width (a pipe) everything is as wide as it is.
enum SummaryLayout {
    /// The width to fit: on a terminal, `COLUMNS` when it holds a number, else the terminal's own; nil into a pipe.
    static func width(environment: [String: String], stdoutIsTerminal: Bool) -> Int? {
        guard stdoutIsTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `line` wrapped to `width`: its own indent kept, its continuation two columns further in.
    static func wrapped(_ line: String, width: Int?) -> [String] {
        let indent = line.prefix { $0 == " " }.count
        guard let width, DisplayWidth.of(line) > width, width - indent > 6 else { return [line] }
        let words = line.split(separator: " ")
        let first = TextFit.wrap(String(line.dropFirst(indent)), width - indent)
        guard first.count > 1 else { return first.map { String(repeating: " ", count: indent) + $0 } }
        // The rest again, narrower by its indent.
        let rest = words.dropFirst(first[0].split(separator: " ").count).joined(separator: " ")
        let pad = String(repeating: " ", count: indent + 2)
        return [String(repeating: " ", count: indent) + first[0]] + TextFit.wrap(rest, width - indent - 2).map { pad + $0 }
    }

    /// The table's lines: the headings, then the rows, the first column the dates; two spaces between columns.
    static func table(headings: [String], rows: [[String]], width: Int?) -> [String] {
        var headings = headings
        var widths = headings.indices.map { i in ([headings[i]] + rows.map { $0[i] }).map(DisplayWidth.of).max() ?? 0 }
        func lines(_ columns: [Int]) -> [String] {
            ([headings] + rows).map { cells in
                columns.map { i in cells[i] + String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(cells[i]))) }
                    .joined(separator: "  ").trimmingTrailingSpaces()
            }
        }
        let all = Array(headings.indices)
        guard let width, all.map({ widths[$0] + 2 }).reduce(-2, +) > width, headings.count > 1 else { return lines(all) }
        // A heading wider than its values gives way first; then the writers go in parts.
        let room = max(1, width - widths[0] - 2)
        for i in all.dropFirst() where widths[i] > room {
            headings[i] = TextFit.truncate(headings[i], room)
            widths[i] = ([headings[i]] + rows.map { $0[i] }).map(DisplayWidth.of).max() ?? 0
        }
        var parts: [[Int]] = [], part: [Int] = [], used = widths[0]
        for i in all.dropFirst() {
            if !part.isEmpty && used + 2 + widths[i] > width {
                parts.append(part)
                part = []
                used = widths[0]
            }
            part.append(i)
            used += 2 + widths[i]
        }
        parts.append(part)
        return parts.enumerated().flatMap { n, part in (n == 0 ? [] : [""]) + lines([0] + part) }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
