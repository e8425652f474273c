/// A file on `rhr FILE...`'s command line that could not be imported: the dashboard on the other files (or on
/// nothing) says so where it is seen, not only on the stderr the full screen covers.
public struct ImportFailure: Sendable, Hashable {
    /// The file as it was given.
    public var file: String
    /// rhr's words for what is wrong, naming the file and the position (`x.json: read as …: line 2: byte 146: …`).
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// The note under the header while other files' data is shown: one line, so the position comes first, before
    /// what the file was read as (`x.json: read as a … file (JSON): line 2: …` → `x.json: line 2: …`); help and
    /// stderr have the whole message.
    var notice: String {
        var text = Substring(message)
        if text.hasPrefix(file + ": ") { text = text.dropFirst(file.count + 2) }
        if text.hasPrefix("read as "), let end = text.range(of: ": ") { text = text[end.upperBound...] }
        return "Not imported: \(file): \(text)"
    }

    /// The body's title and paragraphs when nothing else is there.
    static func explanation(_ failures: [ImportFailure]) -> (title: String, paragraphs: [String]) {
        let title = failures.count == 1 ? "\(failures[0].file) could not be imported."
            : "\(failures.count) files could not be imported."
        return (title, failures.map(\.message) + [
            "Nothing was imported, so there is nothing to show: the temporary store rhr made for the files on its "
                + "command line is empty. rhr import FILE reports the same; rhr demo shows the bundled samples.",
        ])
    }
}
