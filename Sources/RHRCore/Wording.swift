/// Counts and lists in words, for every place that prints them.
public enum Wording {
    /// "1 heart-rate sample", "12,408 heart-rate samples".
    public static func count(_ n: Int, _ noun: String) -> String {
        count(n, noun, plural: noun + "s")
    }

    /// "1 heart-rate summary", "2 heart-rate summaries": for a noun whose plural is not its singular and an s.
    public static func count(_ n: Int, _ singular: String, plural: String) -> String {
        "\(grouped(n)) \(n == 1 ? singular : plural)"
    }

    /// "12,408".
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// "first", "second", "third", then "4th", "11th", "22nd".
    public static func ordinal(_ n: Int) -> String {
        let words = ["first", "second", "third"]
        if (1...3).contains(n) { return words[n - 1] }
        let suffix = (11...13).contains(n % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10]
        return "\(n)\(suffix)"
    }

    public static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        case 2: return "\(items[0]) and \(items[1])"
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }
}
