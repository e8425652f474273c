import RHRCore
import Testing

/// R15: each writer's resting heart rate named from its maker's own words (docs/design.md section 9).
@Suite("Derivation registry")
struct DerivationRegistryTests {
    /// What each entry must say, from docs/derivations.md: window, statistic, revision and the first page it cites.
    static let expected: [String: (Derivation.Window, Derivation.Statistic, Derivation.Revision, String)] = [
        "apple-watch": (.wholeDay, .estimate, .mayReplace("while its day is today or yesterday"), "restingHeartRate"),
        "oura": (.night, .lowestAverage(minutes: 10), .notDocumented, "What Is Resting Heart Rate?"),
        "whoop": (.sleepStage("the last period of slow-wave sleep of the night"), .notDocumented, .notDocumented,
                  "How is Recovery Calculated?"),
        "fitbit": (.wholeDay, .notDocumented, .notDocumented, "Class DailyRestingHeartRate"),
        "polar": (.dayOrNight, .lowestReading, .notDocumented, "Continuous Heart Rate"),
        "withings-scale": (.moment("a few seconds standing on the scale"), .spotCheck, .notDocumented,
                           "Why is it important to monitor your resting heart rate?"),
        "withings": (.notDocumented, .notDocumented, .notDocumented, "Why is it important to monitor your resting heart rate?"),
        "garmin": (.notDocumented, .notDocumented, .notDocumented, "Heart Rate Monitoring"),
        "samsung": (.notDocumented, .notDocumented, .notDocumented, "HeartRateType"),
    ]

    /// A writer as the stores hold one for each key, with the device the key asks for.
    static func writer(for match: DerivationRegistry.Match) -> (Writer, Device?) {
        switch match {
        case .appleWatch: return (Writer(store: .healthKit, name: "Jane’s Apple Watch"), nil)
        case .healthKitSource(let name): return (Writer(store: .healthKit, name: name), nil)
        case .healthConnectPackage(let package, let type): return (Writer(store: .healthConnect, name: package), type.map { Device(type: $0) })
        }
    }

    @Test(arguments: DerivationRegistry.entries)
    func everyEntryHasItsFieldsAndCitation(_ entry: DerivationRegistry.Entry) throws {
        let d = entry.derivation
        let (window, statistic, revision, title) = try #require(Self.expected[d.id], "no expectation for \(d.id)")
        #expect(d.window == window)
        #expect(d.statistic == statistic)
        #expect(d.revision == revision)
        #expect(d.sources.first?.title == title)
        for source in d.sources {
            #expect(!source.publisher.isEmpty && !source.title.isEmpty)
            #expect(source.address.hasPrefix("https://"))
        }
        #expect(!entry.matches.isEmpty)
        #expect(!d.writer.isEmpty && !d.maker.isEmpty)
        // A legend has room for a short phrase; the summary is a sentence.
        #expect(!d.short.isEmpty && d.short.count <= 36)
        #expect(d.summary.hasSuffix("."))
        // What the maker does not document is said in those words, with the maker's name.
        if !d.isDocumented { #expect(d.short == "not documented by \(d.maker)") }
        if d.appears == nil { #expect(d.appearsWords == "not documented by \(d.maker)") }
        // Every key finds this entry: no earlier entry shadows it.
        for match in entry.matches {
            let (writer, device) = Self.writer(for: match)
            #expect(Derivation.of(writer: writer, device: device).id == d.id, "\(match) finds another entry")
        }
    }

    @Test func everyEntryIsExpectedAndIdsAreUnique() {
        let ids = Derivation.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(DerivationRegistry.entries.map(\.derivation.id)) == Set(Self.expected.keys))
        #expect(ids.suffix(3) == ["unknown-healthkit", "unknown-healthconnect", "unnamed-health-auto-export"])
    }

    @Test func appleWatchIsFoundByItsNameBundleIdProductTypeOrTheStoresMark() {
        for name in ["Jane’s Apple Watch", "Jane's Apple Watch", "Apple\u{00A0}Watch de Juan"] {
            #expect(Derivation.of(writer: Writer(store: .healthKit, name: name)).id == "apple-watch", "\(name)")
        }
        let live = Writer(store: .healthKit, name: "Watch", bundleIdentifier: "com.apple.health.7A1B2C3D-0000-4000-8000-000000000001",
                          productType: "Watch7,1")
        #expect(Derivation.of(writer: live).id == "apple-watch")
        // A renamed watch in an export: the store knows it from its device records.
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "Fixture Watch"), isAppleWatch: true).id == "apple-watch")
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "Fixture Watch"), device: Device(model: "Watch")).id
            == "apple-watch")
        // The iPhone's Health source shares the bundle prefix; its product type says it is no watch.
        let phone = Writer(store: .healthKit, name: "Jane’s iPhone", bundleIdentifier: "com.apple.health.7A1B", productType: "iPhone15,2")
        #expect(Derivation.of(writer: phone).id == "unknown-healthkit")
        // No Apple Watch writes to Health Connect.
        #expect(Derivation.of(writer: Writer(store: .healthConnect, name: "Jane’s Apple Watch"), isAppleWatch: true).id
            == "unknown-healthconnect")
    }

    @Test func ouraIsFoundByItsPackageInHealthConnectAndItsNameInHealthKitOnly() {
        let overHC = Derivation.of(writer: Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura"))
        #expect(overHC.id == "oura")
        #expect(overHC.short == "lowest 10-minute night average")
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "Oura")).id == "oura")
        // The key belongs to its store: a package name in HealthKit, an app name in Health Connect, match nothing.
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "com.ouraring.oura")).id == "unknown-healthkit")
        #expect(Derivation.of(writer: Writer(store: .healthConnect, name: "Oura")).id == "unknown-healthconnect")
        // Package names are exact; HealthKit source names ignore case.
        #expect(Derivation.of(writer: Writer(store: .healthConnect, name: "com.ouraring.Oura")).id == "unknown-healthconnect")
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "whoop")).id == "whoop")
    }

    @Test func anUnknownHealthConnectPackageIsNotDocumentedAndHealthConnectDocumentsNone() {
        let d = Derivation.of(writer: Writer(store: .healthConnect, name: "com.example.tracker", appName: "Tracker"))
        #expect(d.id == "unknown-healthconnect")
        #expect(d.short == "derivation not documented")
        #expect(d.summary == "Derivation not documented by this writer; Health Connect documents none.")
        #expect(!d.isDocumented)
        #expect(d.sentence == "Derivation not documented by this writer; Health Connect documents none. "
            + "Source: Android Developers, “RestingHeartRateRecord”.")
        #expect(Derivation.of(writer: Writer(store: .healthKit, name: "Sleep Cycle")).summary
            == "Derivation not documented by this writer; HealthKit documents only the estimate Apple Watch writes.")
    }

    @Test func aWithingsScaleReadingIsASpotCheckAndOtherWithingsValuesAreNotDocumented() {
        let withings = Writer(store: .healthConnect, name: "com.withings.wiscale2", appName: "Withings")
        #expect(Derivation.of(writer: withings, device: Device(manufacturer: "Withings", model: "Body Cardio", type: 3)).id
            == "withings-scale")
        #expect(Derivation.of(writer: withings, device: Device(manufacturer: "Withings", model: "ScanWatch", type: 1)).id
            == "withings")
        // The legend names a writer without a device.
        #expect(Derivation.of(writer: withings).short == "not documented by Withings")
    }

    @Test func aCombinedHealthAutoExportWriterIsCombinedWithEachWritersOwnDerivation() {
        // What the reader makes of `"source":"Watch|Oura"`.
        let name = Writer.combinedName(["Watch", "Oura"])
        let d = Derivation.of(writer: Writer(store: .healthKit, name: name))
        #expect(d.id == "combined")
        #expect(d.parts.map(\.id) == ["unknown-healthkit", "oura"])
        #expect(d.short == "combined by Health Auto Export")
        #expect(d.summary == "Health Auto Export gave one value for Watch and Oura together; how it combined them is not "
            + "documented by Health Auto Export. Alone: Watch (derivation not documented), Oura (lowest 10-minute night average).")
        // Never matched to either writer alone.
        #expect(d.window == .notDocumented && d.statistic == .notDocumented)
        let three = Derivation.of(writer: Writer(store: .healthKit, name: Writer.combinedName(["Jane’s Apple Watch", "Oura", "WHOOP"])))
        #expect(three.parts.map(\.id) == ["apple-watch", "oura", "whoop"])
        #expect(three.writer == "Jane’s Apple Watch, Oura and WHOOP together")
    }

    @Test func combinedNamesReadBackIntoTheirWriters() {
        #expect(Writer.combinedParts(Writer.combinedName(["Will's Apple Watch", "Oura"])) == ["Will's Apple Watch", "Oura"])
        #expect(Writer.combinedParts("Oura") == nil)
        #expect(Writer.combinedParts("Oura (combined)") == nil)
    }

    @Test func aSourcelessHealthAutoExportPointNamesNoWriter() {
        let d = Derivation.of(writer: Writer(store: .healthKit, name: Writer.unnamedHealthAutoExport))
        #expect(d.id == "unnamed-health-auto-export")
        #expect(d.short == "writer not named")
        #expect(d.summary == "Health Auto Export sent this value without its source, so its writer and derivation are not "
            + "known; if an Apple Watch wrote it, it is the watch's all-day estimate.")
        // Only HealthKit has Health Auto Export points.
        #expect(Derivation.of(writer: Writer(store: .healthConnect, name: "Health Auto Export")).id == "unknown-healthconnect")
    }

    @Test func theWordsForPeople() {
        let oura = Derivation.of(writer: Writer(store: .healthConnect, name: "com.ouraring.oura"))
        let watch = Derivation.of(writer: Writer(store: .healthKit, name: "Jane’s Apple Watch"))
        #expect(Derivation.comparison(oura, watch) == "lowest 10-minute night average vs. all-day rest estimate")
        #expect(oura.lines.map { "\($0.label): \($0.words)" } == [
            "window: the night",
            "statistic: the lowest 10-minute average",
            "appears: each morning when you wake up",
            "revised: not documented by Oura",
            "source: Oura Help, “What Is Resting Heart Rate?”; Oura API Documentation, “Sleep Routes”; "
                + "Oura API Documentation, “Daily Readiness Routes”",
        ])
        #expect(watch.lines[3].words == "may be replaced while its day is today or yesterday")
        #expect(watch.sentence.hasPrefix("An estimate of the lowest heart rate during periods of rest, which the system makes "
            + "by analysing sedentary heart-rate samples throughout the day; it is not a sedentary sample. When it appears is "
            + "not documented by Apple. It may be replaced while its day is today or yesterday. A user's measurement"))
        #expect(watch.sentence.hasSuffix("Source: Apple Developer Documentation, “restingHeartRate”; Health Auto Export issues, "
            + "#61, “[BUG] \"Since Last Sync\" automations permanently miss back-dated samples (Resting Heart Rate), while a "
            + "\"Today\" window on the same automation delivers them (9.0.15)”."))
        let polar = Derivation.of(writer: Writer(store: .healthConnect, name: "fi.polar.polarflow"))
        #expect(polar.windowWords == "the day or the previous night (which one, not documented by Polar)")
        let fitbit = Derivation.of(writer: Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile"))
        #expect(fitbit.statisticWords == "not documented by Google")
        #expect(fitbit.isDocumented)
    }
}

extension DerivationRegistry.Entry: CustomTestStringConvertible {
    public var testDescription: String { derivation.id }
}
