/// R2: when two spellings name one writer. Phones and apps write the same writer's name in ways that differ only in
/// how it is typed: a no-break space for a space, a straight apostrophe for Apple's curly one, the name given twice
/// (`Jane’s Apple Watch|Jane’s Apple Watch`, Health Auto Export's join of one source with itself), or with the memory
/// address of an `HKDevice` description, which changes from record to record. Each of these is one writer: its name is
/// the folded spelling, and the raw spellings are kept beside it (the store's `writer_spelling`, the detail pane).
public enum WriterNameRule {
    /// The name the writer goes by: spaces of every width one space, every apostrophe Apple's `’` (U+2019, what iOS
    /// writes in device names), a name of one part given more than once (joined by `|`) that part once, and an
    /// `<<HKDevice: 0x…>` without its address.
    public static func canonical(_ name: String) -> String {
        // Most names hold none of what is folded: one pass over the UTF-8 finds that.
        if !name.utf8.contains(where: { $0 >= 0x80 || $0 == 0x27 || $0 == 0x7C || $0 == 0x3C }) { return name }
        var folded = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x00A0, 0x2007, 0x202F: folded.append(" ")
            case 0x0027, 0x2018, 0x02BC: folded.append("\u{2019}")
            default: folded.append(scalar)
            }
        }
        var text = String(folded)
        text = withoutDeviceAddresses(text)
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        if parts.count > 1, parts.allSatisfy({ $0 == parts[0] }) { text = String(parts[0]) }
        return text
    }

    /// The spellings of one writer other than its canonical name, sorted: what the store keeps beside it.
    public static func otherSpellings(_ spellings: some Sequence<String>, of canonical: String) -> [String] {
        Set(spellings).subtracting([canonical]).sorted()
    }

    /// A spelling as the detail pane shows it: in quotes, followed by what sets it apart that a reader cannot see
    /// (`“Jane’s Apple Watch” with a no-break space`), so that two spellings that differ only there read differently,
    /// in words rather than an escape.
    public static func visible(_ spelling: String) -> String {
        var seen: [String] = []
        for scalar in spelling.unicodeScalars {
            if let name = lookalikes[scalar.value], !seen.contains(name) { seen.append(name) }
        }
        return "“\(spelling)”" + (seen.isEmpty ? "" : " with " + Wording.list(seen))
    }

    /// The characters `canonical` folds that look like another, by name.
    private static let lookalikes: [UInt32: String] = [
        0x00A0: "a no-break space", 0x2007: "a figure space", 0x202F: "a narrow no-break space",
        0x0027: "a straight apostrophe", 0x2018: "a left single quotation mark", 0x02BC: "a modifier letter apostrophe",
    ]

    /// `<<HKDevice: 0x283f1c0a0>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`.
    private static func withoutDeviceAddresses(_ text: String) -> String {
        let marker = "HKDevice: 0x"
        guard text.contains(marker) else { return text }
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: marker) {
            out += rest[..<range.lowerBound] + "HKDevice"
            rest = rest[range.upperBound...].drop(while: \.isHexDigit)
        }
        return out + rest
    }
}
