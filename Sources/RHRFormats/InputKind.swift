import Foundation

/// Which reader applies to a file, decided from its content, never from its name: the phone's language
/// names Apple's export (`exportar.zip`, `vienti.zip`), and Health Connect numbers its copies.
public enum InputKind: Sendable, Hashable, CustomStringConvertible {
    /// Sync batches, one JSON object per line (docs/design.md section 4).
    case syncBatches
    /// Apple Health `export.xml` under any name.
    case appleHealthXML
    /// Apple Health `export.zip`; `member` is the XML member found by its content.
    case appleHealthZip(member: String)
    /// Health Connect's `health_connect_export.db`, bare.
    case healthConnectDatabase
    /// Health Connect's export zip; `member` is the SQLite member.
    case healthConnectZip(member: String)
    /// Health Auto Export JSON.
    case healthAutoExportJSON
    /// Health Auto Export CSV: a row per period, a column per metric.
    case healthAutoExportCSV
    /// What the HC Webhook app posts: Health Connect records as JSON.
    case hcWebhookJSON
    /// A zip holding exports of both stores (an Apple Health export and a Health Connect database), each read.
    indirect case exports([InputKind])

    public var description: String {
        switch self {
        case .syncBatches: return "sync batches (JSON lines)"
        case .appleHealthXML: return "Apple Health export (XML)"
        case .appleHealthZip: return "Apple Health export (zip)"
        case .healthConnectDatabase: return "Health Connect export (SQLite)"
        case .healthConnectZip: return "Health Connect export (zip)"
        case .healthAutoExportJSON: return "Health Auto Export JSON"
        case .healthAutoExportCSV: return "Health Auto Export CSV"
        case .hcWebhookJSON: return "HC Webhook JSON"
        case .exports(let kinds): return kinds.map(\.description).joined(separator: " and ")
        }
    }

    /// What an error says the file was read as: "a sync batch file (JSON lines)".
    public var readAs: String {
        switch self {
        case .syncBatches: return "a sync batch file (JSON lines)"
        case .appleHealthXML: return "an Apple Health export (XML)"
        case .appleHealthZip: return "an Apple Health export (zip)"
        case .healthConnectDatabase: return "a Health Connect export (SQLite)"
        case .healthConnectZip: return "a Health Connect export (zip)"
        case .healthAutoExportJSON: return "a Health Auto Export file (JSON)"
        case .healthAutoExportCSV: return "a Health Auto Export file (CSV)"
        case .hcWebhookJSON: return "an HC Webhook payload (JSON)"
        case .exports(let kinds): return kinds.map(\.readAs).joined(separator: " and ")
        }
    }

    /// Reads the head of the file (and of a zip's members) and names the reader, or says why none fits.
    public static func detect(path: String) throws(InputError) -> InputKind {
        try surveyed(path: path).kind
    }

    /// The kind, and for a zip the survey that told it, which reading the zip needs again (a survey reads the
    /// first KiB of every member). An rhr store is refused as one (`RHRStoreInput`); `spooledFrom` names the input
    /// `path` is a private copy of.
    static func surveyed(path: String, spooledFrom: String? = nil) throws(InputError) -> (kind: InputKind, survey: ZipSurvey?) {
        if let refusal = RHRStoreInput.refusal(path: path, shown: spooledFrom) { throw refusal }
        let head = try ReadOnlyFile.head(path: path, count: headSize)
        guard ArchiveReader.looksLikeZip(head) else { return (try detect(head: head, path: path), nil) }
        let survey = try ZipSurvey(path: path)
        return (try survey.kind(path: path), survey)
    }

    /// How many first bytes tell a file's kind.
    static let headSize = 64 * 1024

    /// The kind the first bytes tell, or why none fits (zips are told by `ZipSurvey`).
    static func detect(head: [UInt8], path: String) throws(InputError) -> InputKind {
        if head.isEmpty { throw InputError(path: path, message: "the file is empty") }
        if let kind = detect(head: head) { return kind }
        if isJSON(head) { throw InputError(path: path, message: "not a file rhr reads: \(JSONHead(head).words); \(known)") }
        throw InputError(path: path, message: "not a file rhr reads: expected an Apple Health export (zip or XML), "
            + "a Health Connect export (zip or .db), Health Auto Export JSON or CSV, HC Webhook JSON, or sync batches (JSON lines)")
    }

    /// The kinds rhr reads, as a refusal names them.
    static let known = "rhr reads an Apple Health export (zip or XML), a Health Connect export (zip or .db), "
        + "Health Auto Export JSON or CSV, HC Webhook JSON, or sync batches (JSON lines)"

    /// The kinds a file's first bytes tell alone (everything but zips).
    public static func detect(head: [UInt8]) -> InputKind? {
        if isSQLite(head) { return .healthConnectDatabase }
        if isAppleHealthXML(head) { return .appleHealthXML }
        if HealthAutoExportCSVReader.looksLikeCSV(head) { return .healthAutoExportCSV }
        guard let first = head.first(where: { !isSpace($0) }), first == UInt8(ascii: "{") else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("\"metrics\"") && text.contains("\"data\"") { return .healthAutoExportJSON }
        // HC Webhook writes `timestamp` and `app_version` first; no other format rhr reads has `app_version`.
        if text.contains("\"app_version\"") { return .hcWebhookJSON }
        // A batch file by its first line's members; other JSON is no input rhr reads.
        return JSONHead(head).isSyncBatch ? .syncBatches : nil
    }

    /// Whether the first bytes (after white space and a byte order mark) open a JSON object or array.
    static func isJSON(_ head: [UInt8]) -> Bool {
        guard let first = head.first(where: { !isSpace($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    public static func isSQLite(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// The XML member is the one whose first KiB holds `<!DOCTYPE HealthData` or `<HealthData `.
    public static func isAppleHealthXML(_ head: [UInt8]) -> Bool {
        let prefix = head.prefix(1024)
        return contains(prefix, "<!DOCTYPE HealthData") || contains(prefix, "<HealthData ")
            || contains(prefix, "<HealthData>")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0xEF || b == 0xBB || b == 0xBF }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        var i = haystack.startIndex
        while i + n.count <= haystack.endIndex {
            if haystack[i] == n[0] && haystack[i..<(i + n.count)].elementsEqual(n) { return true }
            i += 1
        }
        return false
    }
}
