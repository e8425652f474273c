import Foundation

/// R2: who wrote a value, named wherever it is shown: the writer, and the device and recording method
/// the platform reports with it.

/// Health Connect's `recordingMethod` (R2).
public enum RecordingMethod: Int, Sendable, Hashable, CaseIterable {
    case unknown = 0
    case activelyRecorded = 1
    case automaticallyRecorded = 2
    case manualEntry = 3

    public var words: String {
        switch self {
        case .unknown: return "unknown"
        case .activelyRecorded: return "actively recorded"
        case .automaticallyRecorded: return "automatically recorded"
        case .manualEntry: return "manual entry"
        }
    }
}

/// The device a value came from, as far as the platform says.
public struct Device: Sendable, Hashable {
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var hardware: String?
    public var software: String?
    /// Health Connect device type: 0 unknown, 1 watch, 2 phone, 3 scale, 4 ring, 5 head mounted,
    /// 6 fitness band, 7 chest strap, 8 smart display.
    public var type: Int?

    /// Each text through the gate's bound (`TextGate.clipped`): a device's names only describe it.
    public init(name: String? = nil, manufacturer: String? = nil, model: String? = nil,
                hardware: String? = nil, software: String? = nil, type: Int? = nil) {
        self.name = name.map(TextGate.clipped)
        self.manufacturer = manufacturer.map(TextGate.clipped)
        self.model = model.map(TextGate.clipped)
        self.hardware = hardware.map(TextGate.clipped)
        self.software = software.map(TextGate.clipped)
        self.type = type
    }

    public var isEmpty: Bool {
        name == nil && manufacturer == nil && model == nil && hardware == nil && software == nil && type == nil
    }

    /// Health Connect device type in words.
    public var typeWords: String? {
        guard let type else { return nil }
        let names = ["unknown", "watch", "phone", "scale", "ring", "head mounted", "fitness band",
                     "chest strap", "smart display"]
        return names.indices.contains(type) ? names[type] : "type \(type)"
    }

    /// One short line for the detail view: "Oura Ring (ring)", "Apple Watch". A Health Connect device (one with a
    /// type) goes by its display name when it has one, the name a device data provider gave it (docs/design.md
    /// section 2); any other by maker and model, else its name.
    public var summary: String {
        var parts: [String] = []
        if type != nil, let name, !name.isEmpty {
            parts.append(name)
        } else {
            if let manufacturer, !manufacturer.isEmpty { parts.append(manufacturer) }
            if let model, !model.isEmpty, model != manufacturer { parts.append(model) }
            if parts.isEmpty, let name, !name.isEmpty { parts.append(name) }
        }
        var text = parts.joined(separator: " ")
        if let words = typeWords, type != 0 { text += text.isEmpty ? words : " (\(words))" }
        return text.isEmpty ? "unknown device" : text
    }
}

/// Who wrote a value (R2). Identity is the store plus the name; the rest describes it.
public struct Writer: Sendable, Hashable, Comparable {
    public var store: HealthStore
    /// HealthKit: `sourceName`. Health Connect: the `dataOrigin` package name. At most `TextGate.maxBytes`: a
    /// longer name is cut (`nameBytes` says how long it was), and names alike up to the cut are one writer.
    public var name: String
    /// The UTF-8 length of the name as delivered, when the gate cut it; nil when `name` is whole.
    public var nameBytes: Int?
    /// Health Connect: the app's display name when known.
    public var appName: String?
    /// HealthKit live feed: the source's bundle identifier.
    public var bundleIdentifier: String?
    /// HealthKit live feed: the source revision's product type, e.g. `Watch7,1`.
    public var productType: String?

    /// Every text goes through the gate (`TextGate`): the name is cut to its bound, the rest clipped. A name cut
    /// before (read back from the store) comes with the length it had, `nameBytes`.
    public init(store: HealthStore, name: String, appName: String? = nil,
                bundleIdentifier: String? = nil, productType: String? = nil, nameBytes: Int? = nil) {
        let bounded = TextGate.bounded(name)
        self.store = store
        self.name = bounded.text
        self.nameBytes = bounded.fullBytes ?? nameBytes
        self.appName = appName.map(TextGate.clipped)
        self.bundleIdentifier = bundleIdentifier.map(TextGate.clipped)
        self.productType = productType.map(TextGate.clipped)
    }

    public var key: WriterKey { WriterKey(store: store, name: name) }

    /// The name of a value several writers gave together (Health Auto Export joins their names with `|` when it
    /// aggregates them): "Jane’s Apple Watch + Oura (combined)", a writer of its own, never matched to either alone
    /// (R2). One name alone is itself.
    public static func combinedName(_ parts: [String]) -> String {
        let names = parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard names.count > 1 else { return names.first ?? "" }
        return names.joined(separator: " + ") + combinedSuffix
    }

    private static let combinedSuffix = " (combined)"

    /// The writers a combined name joins (`combinedName`'s parts, in order); nil for a name that is not combined.
    public static func combinedParts(_ name: String) -> [String]? {
        guard name.hasSuffix(combinedSuffix) else { return nil }
        let parts = name.dropLast(combinedSuffix.count).components(separatedBy: " + ")
        return parts.count > 1 ? parts : nil
    }

    /// The writer of HealthKit values Health Auto Export sends without a `source` (docs/design.md section 2): no
    /// writer is named, and it may be an Apple Watch (R3).
    public static let unnamedHealthAutoExport = "Health Auto Export"

    /// The name, ending in "…" when the gate cut it.
    public var shownName: String { nameBytes == nil ? name : name + "…" }

    /// The writer's name as the UI shows it, without the store.
    public var displayName: String {
        switch store {
        case .healthKit:
            return shownName
        case .healthConnect:
            if let appName = knownAppName, appName != name { return "\(appName) (\(shownName))" }
            return shownName
        }
    }

    /// The name the dashboard shows and `rhr export` writes as `writer_name`: a Health Connect writer's app name
    /// when known (its package is `name`), else the name.
    public var shortName: String {
        switch store {
        case .healthKit: return shownName
        case .healthConnect: return knownAppName ?? shownName
        }
    }

    /// A Health Connect writer's app name: the one its records gave, else the one the derivation registry knows for
    /// its package (a writer that arrives only by HC Webhook, whose records name only the package, is still "Oura").
    public var knownAppName: String? {
        if let appName, !appName.isEmpty { return appName }
        return store == .healthConnect ? DerivationRegistry.appName(package: name) : nil
    }

    /// R11 wording, from the facts: "HealthKit estimate" only for Apple's own resting value (the
    /// registry's Apple Watch entry: by its name, bundle identifier, product type, `device`'s model or the store's
    /// `isAppleWatch` mark); any other HealthKit writer is an app that wrote its number into HealthKit; a Health
    /// Connect value is what the named app wrote. Health Auto Export's combined and unnamed writers say what they are.
    public func provenance(isAppleWatch: Bool = false, device: Device? = nil) -> String {
        switch store {
        case .healthKit:
            if let parts = Writer.combinedParts(name) {
                return "combined by Health Auto Export from \(Wording.list(parts)) (HealthKit)"
            }
            if name == Writer.unnamedHealthAutoExport {
                return "HealthKit values Health Auto Export sent without their writer’s name"
            }
            if DerivationRegistry.isApple(self, device: device, isAppleWatch: isAppleWatch) {
                return "HealthKit estimate by \(shownName)"
            }
            return "written by \(shownName) into HealthKit"
        case .healthConnect: return "written by \(displayName) (Health Connect)"
        }
    }

    public static func < (lhs: Writer, rhs: Writer) -> Bool { lhs.key < rhs.key }
    public static func == (lhs: Writer, rhs: Writer) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// The identity of a writer: store and name.
public struct WriterKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var store: HealthStore
    public var name: String

    public init(store: HealthStore, name: String) {
        self.store = store
        self.name = name
    }

    public var description: String { "\(store.rawValue):\(name)" }

    public static func < (lhs: WriterKey, rhs: WriterKey) -> Bool {
        (lhs.store.rawValue, lhs.name) < (rhs.store.rawValue, rhs.name)
    }
}
