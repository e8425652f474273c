/// The one reader of the digits in written dates: ISO-8601 and Apple's dates and offsets (`Timestamp.parse`), the
/// compact form of iOS 8–9 exports, a calendar day (`LocalDay`), the Apple export's same-day shortcut and a Health
/// Auto Export CSV's dates. Inlinable, so the export scanner's hot path pays no call for it.
public enum DateDigits {
    /// `count` ASCII digits from `start` as a number; nil when the bytes end first or any of them is not a digit
    /// (no sign, no space: `+1` and ` 1` are not digits).
    @inlinable
    public static func value(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, count > 0, start + count <= bytes.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// How many ASCII digits stand from `start` on (0 when none does).
    @inlinable
    public static func run(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var end = start
        while end < bytes.count && bytes[end] &- 0x30 < 10 { end += 1 }
        return end - start
    }
}
