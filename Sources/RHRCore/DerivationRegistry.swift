/// R15: the documented derivations, one table of data keyed by what identifies a writer in the stores, and the
/// lookup that matches a writer to its entry. Every fact here is what the maker's own page says; where only others
/// say it, the entry says "not documented by <maker>" and the note names who says it. The sources, the sentences
/// quoted from them and the dates they were read are in docs/derivations.md; docs/design.md section 9 says how a
/// writer is matched.
public enum DerivationRegistry {
    /// What identifies a writer in a store.
    public enum Match: Sendable, Hashable {
        /// A HealthKit writer that is an Apple Watch, as R3 tells one (`ProvisionalRule.isAppleWatch`, or the store's
        /// own mark from an export's device records).
        case appleWatch
        /// A HealthKit source name, compared ignoring case: what a third-party app is called in Apple Health.
        case healthKitSource(String)
        /// A Health Connect `dataOrigin` package name, exactly; with a device type, only for records from such a
        /// device (Health Connect device types: 3 is a scale).
        case healthConnectPackage(String, deviceType: Int?)

        /// "a HealthKit Apple Watch (…)", "HealthKit source “Oura”", "Health Connect package com.withings.wiscale2 from a
        /// scale": for the derivations page.
        public var words: String {
            switch self {
            case .appleWatch:
                return "a HealthKit Apple Watch (by its name, bundle identifier, product type or device, or the store’s mark)"
            case .healthKitSource(let name): return "HealthKit source “\(name)”"
            case .healthConnectPackage(let package, let type):
                return "Health Connect package \(package)" + (type.flatMap { Device(type: $0).typeWords }.map { " from a \($0)" } ?? "")
            }
        }
    }

    /// The name of the app a Health Connect package is, where the table has an entry for any record of it (not only
    /// a device's): "Oura" for com.ouraring.oura.
    public static func appName(package: String) -> String? {
        entries.first { $0.matches.contains(.healthConnectPackage(package, deviceType: nil)) }?.derivation.writer
    }

    /// What finds each derivation, for the derivations page: an entry's keys, or the writers with no entry.
    public static func matchWords(_ derivation: Derivation) -> [String] {
        if let entry = entries.first(where: { $0.derivation.id == derivation.id }) { return entry.matches.map(\.words) }
        switch derivation.id {
        case unknownHealthKit.id: return ["any other HealthKit writer"]
        case unknownHealthConnect.id: return ["any other Health Connect writer"]
        case unnamedHealthAutoExport.id: return ["HealthKit values Health Auto Export sent without their writer’s name"]
        default: return []
        }
    }

    public struct Entry: Sendable, Hashable {
        public let matches: [Match]
        public let derivation: Derivation
    }

    typealias Citation = Derivation.Citation

    // MARK: - The pages (titles exactly as the pages give them; read 3 Dec 2026, see docs/derivations.md)

    static let appleRestingHeartRate = Citation(
        publisher: "Apple Developer Documentation", title: "restingHeartRate",
        address: "https://developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/restingheartrate")
    static let ouraWhatIsRestingHeartRate = Citation(
        publisher: "Oura Help", title: "What Is Resting Heart Rate?",
        address: "https://support.ouraring.com/hc/en-us/articles/360025588793-What-Is-Resting-Heart-Rate-")
    static let ouraSleepRoutes = Citation(
        publisher: "Oura API Documentation", title: "Sleep Routes", address: "https://cloud.ouraring.com/v2/docs")
    static let ouraReadinessRoutes = Citation(
        publisher: "Oura API Documentation", title: "Daily Readiness Routes", address: "https://cloud.ouraring.com/v2/docs")
    static let whoopRecovery = Citation(
        publisher: "WHOOP Support", title: "How is Recovery Calculated?",
        address: "https://support.whoop.com/hc/en-us/articles/360019453654-How-is-Recovery-Calculated-")
    static let whoopCycles = Citation(
        publisher: "WHOOP Support", title: "WHOOP Cycles",
        address: "https://support.whoop.com/WHOOP_Data/Sleep/WHOOP_Cycles")
    static let whoopAppleHealth = Citation(
        publisher: "WHOOP Support", title: "Apple Health Integration",
        address: "https://support.whoop.com/APP_FEATURES__COACHING/App_Integrations/Apple_Health_Integration")
    static let googleDailyRestingHeartRate = Citation(
        publisher: "Google Health API v4 reference", title: "Class DailyRestingHeartRate",
        address: "https://googleapis.dev/dotnet/Google.Apis.GoogleHealthAPI.v4/latest/api/"
            + "Google.Apis.GoogleHealthAPI.v4.Data.DailyRestingHeartRate.html")
    static let googleCalculationMethod = Citation(
        publisher: "Google Health API v4 reference",
        title: "Enum DailyRestingHeartRate.Types.DailyRestingHeartRateMetadata.Types.CalculationMethod",
        address: "https://googleapis.dev/dotnet/Google.DevicesAndServices.Health.V4/latest/api/"
            + "Google.DevicesAndServices.Health.V4.DailyRestingHeartRate.Types.DailyRestingHeartRateMetadata"
            + ".Types.CalculationMethod.html")
    static let googleAbout = Citation(
        publisher: "Google for Developers", title: "About the Google Health API",
        address: "https://developers.google.com/health/about")
    static let polarA370 = Citation(
        publisher: "Polar A370 user manual", title: "Continuous Heart Rate",
        address: "https://support.polar.com/e_manuals/A370/Polar_A370_user_manual_English/Content/Continuous_Heart_Rate.htm")
    static let polarContinuous = Citation(
        publisher: "Polar Support", title: "The what and how of Polar's Continuous Heart Rate",
        address: "https://support.polar.com/ca-en/support/the_what_and_how_of_polars_continuous_heart_rate")
    static let withingsRestingHeartRate = Citation(
        publisher: "Withings blog (20 March 2013)", title: "Why is it important to monitor your resting heart rate?",
        address: "https://blog.withings.com/2013/03/20/why-is-it-important-to-monitor-your-resting-heart-rate-2/")
    static let garminHeartRate = Citation(
        publisher: "Garmin", title: "Heart Rate Monitoring",
        address: "https://www.garmin.sa/garmin-technologies/heart-rate-monitoring/")
    static let samsungHeartRateType = Citation(
        publisher: "Samsung Health Data SDK API reference", title: "HeartRateType",
        address: "https://developer.samsung.com/health/data/api-reference/-shd/"
            + "com.samsung.android.sdk.health.data.request/-data-type/-heart-rate-type/index.html")
    static let healthConnectRecord = Citation(
        publisher: "Android Developers", title: "RestingHeartRateRecord",
        address: "https://developer.android.com/reference/kotlin/androidx/health/connect/client/records/RestingHeartRateRecord")
    static let healthAutoExportFormat = Citation(
        publisher: "Health Auto Export wiki", title: "API Export - JSON Format",
        address: "https://github.com/Lybron/health-auto-export/wiki/API-Export---JSON-Format")
    static let healthAutoExportIssue61 = Citation(
        publisher: "Health Auto Export issues, #61",
        title: "[BUG] \"Since Last Sync\" automations permanently miss back-dated samples (Resting Heart Rate), "
            + "while a \"Today\" window on the same automation delivers them (9.0.15)",
        address: "https://github.com/Lybron/health-auto-export/issues/61")

    // MARK: - The table: the first entry with a matching key wins, so a device-specific key comes first.

    public static let entries: [Entry] = [
        Entry(matches: [.appleWatch], derivation: Derivation(
            id: appleWatchID, writer: "Apple Watch", maker: "Apple", window: .wholeDay, statistic: .estimate,
            appears: nil, revision: .mayReplace("while its day is today or yesterday"),
            short: "all-day rest estimate",
            summary: "An estimate of the lowest heart rate during periods of rest, which the system makes by analysing "
                + "sedentary heart-rate samples throughout the day; it is not a sedentary sample.",
            notes: ["A user's measurement in Health Auto Export's issue #61 (not Apple's word): the watch writes a "
                + "day's estimate about 11 hours after the time the sample carries."],
            sources: [appleRestingHeartRate, healthAutoExportIssue61])),
        Entry(matches: [.healthKitSource("Oura"), .healthConnectPackage("com.ouraring.oura", deviceType: nil)],
              derivation: Derivation(
            id: "oura", writer: "Oura", maker: "Oura", window: .night, statistic: .lowestAverage(minutes: 10),
            appears: "each morning when you wake up", revision: .notDocumented,
            short: "lowest 10-minute night average",
            summary: "The lowest 10-minute average of the heart rate Oura monitors through the night.",
            notes: ["Oura's API gives lowest_heart_rate and average_heart_rate per sleep period, and a day can have "
                + "several sleep periods.",
                    "In Oura's readiness, contributors.resting_heart_rate is a score from 1 to 100, not beats per minute."],
            sources: [ouraWhatIsRestingHeartRate, ouraSleepRoutes, ouraReadinessRoutes])),
        Entry(matches: [.healthKitSource("WHOOP"), .healthConnectPackage("com.whoop.android", deviceType: nil)],
              derivation: Derivation(
            id: "whoop", writer: "WHOOP", maker: "WHOOP", window: .sleepStage("the last period of slow-wave sleep of the night"),
            statistic: .notDocumented, appears: "with the Recovery, when the sleep is complete each morning",
            revision: .notDocumented,
            short: "last slow-wave sleep of the night",
            summary: "Resting heart rate captured during the last period of slow-wave sleep each night; WHOOP does not "
                + "say how the beats are summarised.",
            notes: ["WHOOP's day (a cycle) runs from falling asleep one night to falling asleep the next, with one "
                + "Recovery per sleep, not per calendar day.",
                    "WHOOP can sync the resting heart rate of its Recovery to Apple Health."],
            sources: [whoopRecovery, whoopCycles, whoopAppleHealth])),
        Entry(matches: [.healthConnectPackage("com.fitbit.FitbitMobile", deviceType: nil)], derivation: Derivation(
            id: "fitbit", writer: "Fitbit", maker: "Google", window: .wholeDay, statistic: .notDocumented,
            appears: nil, revision: .notDocumented,
            short: "daily value from all-day heart rate",
            summary: "A daily resting heart rate calculated from the all-day heart-rate measurements, one value per date "
                + "in the user's time zone (Google Health API).",
            notes: ["Google's API marks each day as calculated with sleep data or with awake data only "
                + "(CalculationMethod); a Health Connect record has no field for it.",
                    "What the Fitbit app writes into Health Connect is not documented by Google.",
                    "Google ended support for the legacy Fitbit Web API on 30 September 2026."],
            sources: [googleDailyRestingHeartRate, googleCalculationMethod, googleAbout])),
        Entry(matches: [.healthKitSource("Polar Flow"), .healthConnectPackage("fi.polar.polarflow", deviceType: nil)],
              derivation: Derivation(
            id: "polar", writer: "Polar", maker: "Polar", window: .dayOrNight, statistic: .lowestReading,
            appears: nil, revision: .notDocumented,
            short: "lowest reading, day or night",
            summary: "Polar's manuals describe the lowest heart-rate reading of the day, which the device looks for "
                + "when you have sat still for long, and the lowest reading of the previous night.",
            notes: ["Which of the two Polar Flow writes as resting heart rate is not documented by Polar."],
            sources: [polarA370, polarContinuous])),
        Entry(matches: [.healthConnectPackage("com.withings.wiscale2", deviceType: 3)], derivation: Derivation(
            id: "withings-scale", writer: "Withings scale", maker: "Withings",
            window: .moment("a few seconds standing on the scale"), statistic: .spotCheck,
            appears: "at each weigh-in", revision: .notDocumented,
            short: "spot check on the scale",
            summary: "Heart rate checked by standing on the scale for a few seconds; Withings advises measuring shortly "
                + "after waking up.",
            sources: [withingsRestingHeartRate])),
        Entry(matches: [.healthKitSource("Withings"), .healthKitSource("Health Mate"),
                        .healthConnectPackage("com.withings.wiscale2", deviceType: nil)], derivation: Derivation(
            id: "withings", writer: "Withings", maker: "Withings", window: .notDocumented, statistic: .notDocumented,
            appears: nil, revision: .notDocumented,
            short: "not documented by Withings",
            summary: "Derivation not documented by Withings for its watches; its scales take a spot check of a few "
                + "seconds standing on the scale.",
            sources: [withingsRestingHeartRate])),
        Entry(matches: [.healthKitSource("Garmin Connect"),
                        .healthConnectPackage("com.garmin.android.apps.connectmobile", deviceType: nil)],
              derivation: Derivation(
            id: "garmin", writer: "Garmin", maker: "Garmin", window: .notDocumented, statistic: .notDocumented,
            appears: nil, revision: .notDocumented,
            short: "not documented by Garmin",
            summary: "Derivation not documented by Garmin.",
            sources: [garminHeartRate])),
        Entry(matches: [.healthConnectPackage("com.sec.android.app.shealth", deviceType: nil),
                        .healthConnectPackage("com.samsung.android.wear.shealth", deviceType: nil)],
              derivation: Derivation(
            id: "samsung", writer: "Samsung Health", maker: "Samsung", window: .notDocumented, statistic: .notDocumented,
            appears: nil, revision: .notDocumented,
            short: "not documented by Samsung",
            summary: "Derivation not documented by Samsung: its Health Data SDK documents continuous heart rate and no "
                + "resting heart-rate type.",
            sources: [samsungHeartRateType])),
    ]

    // MARK: - Writers the table has no entry for

    /// A Health Connect writer with no entry: Health Connect itself documents no derivation.
    public static let unknownHealthConnect = Derivation(
        id: "unknown-healthconnect", writer: "a Health Connect writer", maker: "this writer",
        window: .notDocumented, statistic: .notDocumented, appears: nil, revision: .notDocumented,
        short: "derivation not documented",
        summary: "Derivation not documented by this writer; Health Connect documents none.",
        sources: [healthConnectRecord])

    /// A HealthKit writer with no entry that is not an Apple Watch: an app wrote the number.
    public static let unknownHealthKit = Derivation(
        id: "unknown-healthkit", writer: "a HealthKit writer", maker: "this writer",
        window: .notDocumented, statistic: .notDocumented, appears: nil, revision: .notDocumented,
        short: "derivation not documented",
        summary: "Derivation not documented by this writer; HealthKit documents only the estimate Apple Watch writes.",
        sources: [appleRestingHeartRate])

    /// A Health Auto Export point without `source`: the writer is not named, so neither is the derivation.
    public static let unnamedHealthAutoExport = Derivation(
        id: "unnamed-health-auto-export", writer: "a writer Health Auto Export did not name", maker: "Health Auto Export",
        window: .notDocumented, statistic: .notDocumented, appears: nil, revision: .notDocumented,
        short: "writer not named",
        summary: "Health Auto Export sent this value without its source, so its writer and derivation are not known; "
            + "if an Apple Watch wrote it, it is the watch's all-day estimate.",
        sources: [healthAutoExportFormat])

    /// A value Health Auto Export joined from several writers (`Watch|Oura`), with each writer's own derivation.
    public static func combined(names: [String], parts: [Derivation]) -> Derivation {
        Derivation(
            id: "combined", writer: Wording.list(names) + " together", maker: "Health Auto Export",
            window: .notDocumented, statistic: .notDocumented, appears: nil, revision: .notDocumented,
            short: "combined by Health Auto Export",
            summary: "Health Auto Export gave one value for \(Wording.list(names)) together; how it combined them is not "
                + "documented by Health Auto Export. Alone: "
                + zip(names, parts).map { "\($0) (\($1.short))" }.joined(separator: ", ") + ".",
            sources: [healthAutoExportFormat], parts: parts)
    }

    // MARK: - Matching

    /// The id of Apple's own entry: the one value that is the system's estimate.
    public static let appleWatchID = "apple-watch"

    /// Whether `writer`'s resting value is Apple's own estimate: a HealthKit writer the Apple Watch entry matches.
    public static func isApple(_ writer: Writer, device: Device? = nil, isAppleWatch: Bool = false) -> Bool {
        matches(.appleWatch, writer: writer, device: device, isAppleWatch: isAppleWatch)
    }

    /// The entry for a writer, if the table has one.
    static func entry(for writer: Writer, device: Device?, isAppleWatch: Bool) -> Entry? {
        entries.first { entry in
            entry.matches.contains { matches($0, writer: writer, device: device, isAppleWatch: isAppleWatch) }
        }
    }

    static func matches(_ match: Match, writer: Writer, device: Device?, isAppleWatch: Bool) -> Bool {
        switch (match, writer.store) {
        case (.appleWatch, .healthKit):
            return isAppleWatch || ProvisionalRule.isAppleWatch(
                sourceName: writer.name, deviceModel: device?.model, productType: writer.productType,
                bundleIdentifier: writer.bundleIdentifier)
        case (.healthKitSource(let name), .healthKit):
            return writer.name.caseInsensitiveCompare(name) == .orderedSame
        case (.healthConnectPackage(let package, let deviceType), .healthConnect):
            return writer.name == package && (deviceType == nil || device?.type == deviceType)
        default:
            return false
        }
    }
}

extension Derivation {
    /// R15: what `writer`'s resting heart rate is. `device` narrows it where a maker's devices differ (a sample's
    /// device; a Withings scale); `isAppleWatch` is the store's own mark (R3: a device of model Watch in an export).
    /// A value Health Auto Export combined from several writers gets each writer's derivation as its parts; a point it
    /// sent without a source, and writers the table has no entry for, get words saying the derivation is not known.
    public static func of(writer: Writer, device: Device? = nil, isAppleWatch: Bool = false) -> Derivation {
        if writer.store == .healthKit {
            if let names = Writer.combinedParts(writer.name) {
                let parts = names.map { of(writer: Writer(store: .healthKit, name: $0)) }
                return DerivationRegistry.combined(names: names, parts: parts)
            }
            if writer.name == Writer.unnamedHealthAutoExport { return DerivationRegistry.unnamedHealthAutoExport }
        }
        if let entry = DerivationRegistry.entry(for: writer, device: device, isAppleWatch: isAppleWatch) {
            return entry.derivation
        }
        return writer.store == .healthKit ? DerivationRegistry.unknownHealthKit : DerivationRegistry.unknownHealthConnect
    }

    /// What `writer`'s values are, over the devices they came from: the derivation every one of them gives, else the
    /// writer's own without a device (a Withings scale's readings and its watch's together get Withings' words).
    public static func of(writer: Writer, devices: some Sequence<Device?>, isAppleWatch: Bool = false) -> Derivation {
        var found: Derivation?
        for device in Set(devices) {
            let derivation = of(writer: writer, device: device, isAppleWatch: isAppleWatch)
            if let found, found.id != derivation.id { return of(writer: writer, isAppleWatch: isAppleWatch) }
            found = derivation
        }
        return found ?? of(writer: writer, isAppleWatch: isAppleWatch)
    }

    /// Every derivation the registry holds, in table order, then the words for writers it has no entry for: the
    /// help page's list.
    public static var all: [Derivation] {
        DerivationRegistry.entries.map(\.derivation)
            + [DerivationRegistry.unknownHealthKit, DerivationRegistry.unknownHealthConnect,
               DerivationRegistry.unnamedHealthAutoExport]
    }
}
