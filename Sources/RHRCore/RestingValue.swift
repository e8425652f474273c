import Foundation

/// R6: units, range and how values are written.
public enum RestingValue {
    /// Valid resting values, Health Connect's documented range, applied to both stores.
    public static let validRange: ClosedRange<Double> = 1...300

    /// Zero, negatives, NaN and values above 300 are kept but flagged and never aggregated.
    public static func isInRange(_ bpm: Double) -> Bool {
        !bpm.isNaN && validRange.contains(bpm)
    }

    /// Converts a HealthKit quantity to beats per minute. Other units are refused by name.
    public static func bpm(value: Double, unit: String) throws(UnitError) -> Double {
        // The common unit without Foundation's trimming, which bridges to NSString: aggregating ten years of
        // samples asks this for every sample several times.
        if unit == "count/min" { return value }
        switch unit.trimmingCharacters(in: .whitespaces) {
        case "count/min", "count/minute", "/min", "bpm": return value
        case "count/s", "count/sec", "/s": return value * 60
        case "count/h", "count/hr", "/h": return value / 60
        default: throw UnitError(unit: unit)
        }
    }

    public static func isSupported(unit: String) -> Bool {
        (try? bpm(value: 1, unit: unit)) != nil
    }

    /// Integral values without decimals, others with one: "58", "58.5". Means always with one (R6).
    /// The one formatter for every bpm rhr writes: the summary, both export formats, the daemon's replies and
    /// the dashboard; JSON writes the number this text says (`DayValueJSON`), so no reader rounds again.
    public static func format(_ bpm: Double, isMean: Bool = false) -> String {
        if bpm.isNaN { return "NaN" }
        if bpm.isInfinite { return bpm < 0 ? "-inf" : "inf" }
        if !isMean && bpm == bpm.rounded() && abs(bpm) < 1e15 { return String(Int(bpm)) }
        return String(format: "%.1f", bpm)
    }
}

/// A unit rhr does not convert to beats per minute.
public struct UnitError: Error, Sendable, Equatable, CustomStringConvertible {
    public var unit: String
    public init(unit: String) { self.unit = unit }
    public var description: String {
        "unit \"\(unit)\" is not a heart rate unit (expected count/min, count/s or count/h)"
    }
}
