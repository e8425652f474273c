/// The package name Health Connect makes up for a device a device data provider writes for (its
/// `SyntheticPackageNameCreator`): `com.android.healthconnect.<device type>.<d|j><32 lower-case hex>`, `d` as the
/// database stores it, `j` as apps reading see it. The hash is of the device's id and a per-phone salt: it identifies
/// a device, never an app, so rhr never shows it (docs/design.md section 2).
enum HealthConnectSyntheticPackage {
    static let prefix = "com.android.healthconnect."

    /// The package without its hash (`com.android.healthconnect.ring`), as the platform itself redacts one in its
    /// messages; nil when `package` is not a synthetic package. Device types beyond today's are allowed for.
    static func redacted(_ package: String) -> String? {
        guard package.hasPrefix(prefix) else { return nil }
        let parts = package.utf8.dropFirst(prefix.utf8.count).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, let type = parts.first, let id = parts.last, !type.isEmpty,
              type.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }),
              id.count == 33, id.first == UInt8(ascii: "d") || id.first == UInt8(ascii: "j"),
              id.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                  || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) else { return nil }
        return prefix + String(decoding: type, as: UTF8.self)
    }
}
