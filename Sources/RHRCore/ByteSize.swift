import Foundation

/// Sizes as people write and read them, for every limit rhr has (`RHR_TEMP_LIMIT`, `--http-max-body`, line lengths).
public enum ByteSize {
    /// "12345", "100K", "512M", "8G", "1T", with or without "B" or "iB" ("64MiB", "64MB"): binary multiples, case
    /// and surrounding spaces ignored; nil for anything else, or zero.
    public static func parse(_ text: String) -> Int64? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("IB") { digits.removeLast(2) } else if digits.hasSuffix("B") && digits.count > 1 { digits.removeLast() }
        var shift: Int64 = 0
        if let last = digits.last, let index = "KMGT".firstIndex(of: last) {
            shift = Int64("KMGT".distance(from: "KMGT".startIndex, to: index) + 1) * 10
            digits.removeLast()
        }
        guard let value = Int64(digits), value > 0, value <= Int64.max >> shift else { return nil }
        return value << shift
    }

    /// "4 GiB", "512 MiB", "1536 KiB", "1000 bytes": exact, in the largest unit that divides it.
    public static func words<Bytes: BinaryInteger>(_ bytes: Bytes) -> String {
        let bytes = Int64(bytes)
        for (unit, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] as [(String, Int64)]
        where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
