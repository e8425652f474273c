/// R3: HealthKit resting values written by an Apple Watch for the current or previous day may still be
/// replaced by Apple; rhr marks them provisional, relative to the time the data was read (`asOf`).
public enum ProvisionalRule {
    /// Whether a writer counts as an Apple Watch. A live feed says so through the bundle identifier,
    /// product type or device model; an export file through a device with `model:Watch`, or a source
    /// name containing "Apple Watch".
    public static func isAppleWatch(sourceName: String, deviceModel: String? = nil,
                                    productType: String? = nil, bundleIdentifier: String? = nil) -> Bool {
        if let deviceModel, deviceModel == "Watch" || deviceModel.hasPrefix("Apple Watch") { return true }
        if sourceName.contains("Apple Watch") || sourceName.contains("Apple\u{00A0}Watch") { return true }
        // The product type names the hardware; an iPhone's Health source shares the bundle prefix.
        if let productType { return productType.hasPrefix("Watch") }
        if let bundleIdentifier { return bundleIdentifier.hasPrefix("com.apple.health.") }
        return false
    }

    /// Whether R3 takes a writer's values for an Apple Watch's: a writer known for one (`isWatch`: the feed said so,
    /// or the store's mark), or a HealthKit writer nobody named (Health Auto Export's points without `source`,
    /// `Writer.unnamedHealthAutoExport`), which may be one. Known for a watch is what the labels and derivations go by
    /// (R11, R15); this is only what may still be replaced.
    public static func mayBeWatch(_ writer: WriterKey, isWatch: Bool) -> Bool {
        isWatch || (writer.store == .healthKit && writer.name == Writer.unnamedHealthAutoExport)
    }

    /// Provisional: a HealthKit value from an Apple Watch whose local day is on or after the day before
    /// the local day of `asOf`. Health Connect values are never provisional.
    public static func isProvisional(store: HealthStore, writerIsWatch: Bool, day: LocalDay, asOf: Timestamp) -> Bool {
        guard store == .healthKit, writerIsWatch else { return false }
        return day >= firstProvisionalDay(readOn: asOf.localDay)
    }

    /// The earliest day an Apple Watch value read on `day` (the local day of `asOf`) is provisional for: the day before.
    public static func firstProvisionalDay(readOn day: LocalDay) -> LocalDay { day.adding(days: -1) }
}
