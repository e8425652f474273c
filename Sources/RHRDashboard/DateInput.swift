import RHRCore

/// Reads what the user typed at the `/` prompt: `2026-03-12`, `2026-03`, `2026`, `12 Mar 2026`, `Mar 2026`,
/// `12 Mar` (in the cursor's year). Month names in English, any case, three letters or more.
enum DateInput {
    static func parse(_ text: String, cursorYear: Int) -> LocalDay? {
        let trimmed = text.trimmingCharacters(in: [" "])
        if let day = LocalDay(trimmed) { return day }
        let dashed = trimmed.split(separator: "-").map(String.init)
        if dashed.count == 2, dashed[0].count == 4, let y = Int(dashed[0]), let m = Int(dashed[1]) {
            return LocalDay(year: y, month: m, day: 1)
        }
        if dashed.count == 1, trimmed.count == 4, trimmed.allSatisfy(\.isNumber), let y = Int(trimmed) {
            return LocalDay(year: y, month: 1, day: 1)
        }
        let words = trimmed.split(separator: " ").map(String.init)
        switch words.count {
        case 3:
            guard let d = Int(words[0]), let m = month(words[1]), let y = Int(words[2]) else { return nil }
            return LocalDay(year: y, month: m, day: d)
        case 2:
            if let d = Int(words[0]), let m = month(words[1]) { return LocalDay(year: cursorYear, month: m, day: d) }
            if let m = month(words[0]), let y = Int(words[1]) { return LocalDay(year: y, month: m, day: 1) }
            return nil
        default:
            return nil
        }
    }

    static func month(_ word: String) -> Int? {
        let w = word.lowercased()
        guard w.count >= 3 else { return nil }
        let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                    "october", "november", "december"]
        return full.firstIndex { $0.hasPrefix(w) }.map { $0 + 1 }
    }

    /// Characters the prompt accepts.
    static func accepts(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == " ")
    }

    static let maxLength = 20
}
