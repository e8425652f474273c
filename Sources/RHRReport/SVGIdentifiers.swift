// Cairo's SVG ids numbered by where they first appear, so the same drawing gives the same bytes.
/// Cairo names some SVG elements by a number it counts over the whole process (`surface5`, `image12`: a surface's
/// unique id), so the second report a process draws would differ from the first. These ids are numbered again, each
/// kind from 1 in the order they first appear (`id="surface5"` and `#surface5` alike), which changes nothing the
/// SVG means (docs/design.md section 6, the report: the same store gives the same bytes).
enum SVGIdentifiers {
    /// The kinds renumbered; cairo's glyph ids (`glyph0-1`) are counted per document already.
    static let kinds = ["surface", "image", "source", "pattern", "mask", "clip", "filter"].map { Array($0.utf8) }

    static func renumbered(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var numbers: [[UInt8]: [[UInt8]: Int]] = [:]
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            out.append(byte)
            i += 1
            // An id is named after a quote (`id="surface5"`) or a hash (`#surface5`).
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#"),
                  let kind = kinds.first(where: { bytes[i...].starts(with: $0) }) else { continue }
            var end = i + kind.count
            while end < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            guard end > i + kind.count, end < bytes.count, !isNameByte(bytes[end]) else { continue }
            let number = Array(bytes[(i + kind.count)..<end])
            let assigned = numbers[kind, default: [:]][number] ?? (numbers[kind]?.count ?? 0) + 1
            numbers[kind, default: [:]][number] = assigned
            out += kind
            out += Array(String(assigned).utf8)
            i = end
        }
        return out
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
