import RHRCore

/// One store's view state, as the file in `$XDG_STATE_HOME/rhr/` holds it: `key = value` lines, the store's
/// key first. Parsed and written here; read and written on disk by the caller. A file that is not exactly
/// what `format` writes is ignored as a whole: it is a convenience, never a reason not to start.
public enum ViewStateFile {
    /// The file's text for the store known by `key` (its path, or what stands for it).
    public static func format(_ settings: ViewSettings, store key: String) -> String {
        var lines = ["# rhr: how this store was last looked at; rewritten when the dashboard closes.",
                     "store = \(KeyValueLines.escape(key))",
                     "aggregation = \(settings.aggregation.rawValue)",
                     "zoom = \(settings.zoom.words)",
                     "mean = \(onOff(settings.showMean))",
                     "band = \(onOff(settings.showBand))",
                     "whiskers = \(onOff(settings.showWhiskers))"]
        if let writer = settings.bandWriter { lines.append("band writer = \(KeyValueLines.escape(writer.description))") }
        for writer in settings.hidden.sorted() { lines.append("hidden = \(KeyValueLines.escape(writer.description))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The settings in `text` when it was written for the store `key`; nil when it belongs to another store
    /// or any line is not one `format` writes.
    public static func parse(_ text: String, store key: String) -> ViewSettings? {
        guard case .success(let entries) = KeyValueLines.parse(text),
              entries.first?.key == "store", KeyValueLines.unescape(entries[0].value) == key else { return nil }
        var settings = ViewSettings()
        for entry in entries.dropFirst() {
            let value = KeyValueLines.unescape(entry.value)
            switch entry.key {
            case "aggregation":
                guard let aggregation = Aggregation(rawValue: value) else { return nil }
                settings.aggregation = aggregation
            case "zoom":
                guard let zoom = Zoom.allCases.first(where: { $0.words == value }) else { return nil }
                settings.zoom = zoom
            case "mean", "band", "whiskers":
                guard let on = flag(value) else { return nil }
                if entry.key == "mean" { settings.showMean = on } else if entry.key == "band" { settings.showBand = on } else {
                    settings.showWhiskers = on
                }
            case "band writer":
                guard let writer = writerKey(value) else { return nil }
                settings.bandWriter = writer
            case "hidden":
                guard let writer = writerKey(value) else { return nil }
                settings.hidden.insert(writer)
            default:
                return nil
            }
        }
        return settings
    }

    /// The file's name for the store `key`: a hash, so any path gives a short, safe name (the key inside the
    /// file tells a rare collision apart).
    public static func fileName(forStore key: String) -> String {
        // FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "view-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

    static func flag(_ text: String) -> Bool? {
        switch text {
        case "on": return true
        case "off": return false
        default: return nil
        }
    }

    /// "healthkit:Withings" → the writer key (the name may hold colons itself).
    static func writerKey(_ text: String) -> WriterKey? {
        guard let colon = text.firstIndex(of: ":"), let store = HealthStore(rawValue: String(text[..<colon])) else {
            return nil
        }
        let name = String(text[text.index(after: colon)...])
        return name.isEmpty ? nil : WriterKey(store: store, name: name)
    }
}
