import Foundation
import RHRCore
import RHRSystem

/// A one-line progress bar on stderr: bytes read of total, rate, time left. Redrawn in place.
final class ProgressBar: Sendable {
    let label: String
    let output: Output
    let start = Date()

    init(label: String, output: Output) {
        // The label (a file's name) goes out with the bar's own escapes, past the gate in `Output`: escaped here.
        self.label = TextGate.visible(label)
        self.output = output
    }

    /// The reader calls this at most a few times a second, from any thread.
    @Sendable func update(_ done: Int64, _ total: Int64) {
        // A quit signal's note then starts on a line of its own: said before the line opens, so no signal falls between.
        QuitNote.lineOpen(true)
        output.writeError("\r\u{1B}[K" + ProgressBar.text(label: label, done: done, total: total,
                                                         elapsed: Date().timeIntervalSince(start)))
    }

    func clear() {
        output.writeError("\r\u{1B}[K")
        QuitNote.lineOpen(false)
    }

    /// "export.zip [██████░░░░░░░░░░░░░░]  31%  158 MB of 512 MB  212 MB/s  2 s left"; of a pipe, whose size nobody
    /// knows (`total` 0), "standard input  158 MB read  212 MB/s".
    static func text(label: String, done: Int64, total: Int64, elapsed: Double, width: Int = 20) -> String {
        if total <= 0 { return "\(label)  \(megabytes(done)) read" + rate(done, elapsed) }
        let fraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        var text = "\(label) [\(bar)] \(percent)  \(megabytes(done)) of \(megabytes(total))" + rate(done, elapsed)
        if elapsed > 0.2 && done > 0 && total > done {
            text += "  \(Int((Double(total - done) * elapsed / Double(done)).rounded(.up))) s left"
        }
        return text
    }

    /// "  212 MB/s", once there is a rate to tell.
    private static func rate(_ done: Int64, _ elapsed: Double) -> String {
        elapsed > 0.2 && done > 0 ? "  \(megabytes(Int64(Double(done) / elapsed)))/s" : ""
    }

    static func megabytes(_ bytes: Int64) -> String {
        let mb = Double(bytes) / 1_000_000
        return mb >= 10 ? "\(Int(mb.rounded())) MB" : String(format: "%.1f MB", mb)
    }
}
