import RHRJSON
import Foundation
import RHRCore
import RHRFormats

/// The result of importing one file the folder watch found: what `rhr status` lists and what subscribers
/// get as an `imported` event. Its sample counts read as its own (`entry.added`).
@dynamicMemberLookup
public struct WatchImport: Sendable, Equatable {
    public var file: String
    /// SHA-256 of the content: a file is imported once per content, whatever its name or timestamps.
    public var sha256: String
    public var at: Date
    public var ok: Bool
    /// "Apple Health export (zip)", … when the file was recognised.
    public var kind: String?
    public var records = 0
    /// The sum over the file's batches.
    public var samples = SampleCounts()
    /// Batches of the file applied before (sync batch files resent).
    public var duplicates = 0
    /// Why the file was skipped, naming the file and the position.
    public var error: String?
    /// The store's revision after the import (or when it failed).
    public var revision: Int64 = 0
    /// The days whose values changed; not kept in the ledger.
    public var days: [LocalDay] = []
    /// The account of a file applied, as `rhr import` gives it (docs/design.md R14): its counts by store, heart-rate
    /// readings, skipped and passed-over records, and notes; nil for a refusal, or an entry of a daemon before it.
    public var account: ImportSummary?

    public init(file: String, sha256: String, at: Date, ok: Bool) {
        self.file = file
        self.sha256 = sha256
        self.at = at
        self.ok = ok
    }

    public subscript(dynamicMember count: WritableKeyPath<SampleCounts, Int>) -> Int {
        get { samples[keyPath: count] }
        set { samples[keyPath: count] = newValue }
    }

    /// `{"file":…,"sha256":…,"at":…,"ok":true,"kind":…,"records":…,"added":…,…}`, or with `"error"`.
    public var json: JSONObject {
        var object = JSONObject()
        object["file"] = .string(file)
        object["sha256"] = .string(sha256)
        object["at"] = .string(Timestamp(date: at, offsetSeconds: 0).iso8601)
        object["ok"] = .bool(ok)
        if let kind { object["kind"] = .string(kind) }
        if ok {
            object["records"] = .number(JSONNumber(records))
            for (key, value) in samples.members { object[key] = value }
            object["duplicates"] = .number(JSONNumber(duplicates))
            if let account { for (key, value) in account.members { object[key] = value } }
        }
        if let error { object["error"] = .string(error) }
        object["revision"] = .number(JSONNumber(revision))
        return object
    }

    /// An entry read back (from the ledger, a `status` reply or an `imported` event); `days` are not part of it.
    public init(members: JSONMembers) throws(JSONPathError) {
        let at = try members.requiredDecode("at", "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) }
        self.init(file: try members.requiredString("file"), sha256: try members.requiredString("sha256"), at: at.date,
                  ok: try members.requiredBool("ok"))
        kind = try members.string("kind")
        func count(_ key: String) throws(JSONPathError) -> Int { Int(try members.integer(key) ?? 0) }
        records = try count("records")
        samples = try SampleCounts(members: members, required: count)
        duplicates = try count("duplicates")
        error = try members.string("error")
        revision = try members.integer("revision") ?? 0
        account = try ImportSummary(members: members, kind: kind ?? "", records: records, duplicates: duplicates)
    }

    /// "export.zip: Apple Health export (zip): 1,204 records read; HealthKit resting samples 31 added, 1 replaced, 0
    /// deleted; …", in the words of `rhr import` (`ImportSummary`), or "x.zip: skipped: …".
    public var summary: String {
        let name = PathText.lastComponent(file)
        guard ok else { return "\(name): skipped: \(error ?? "unreadable")" }
        if let account { return "\(name): " + account.words }
        // An entry of a daemon before the account: its counts as it kept them.
        var text = "\(name): \(kind.map { $0 + ": " } ?? "")\(Wording.count(records, "record")) read; resting samples "
            + samples.words
        if duplicates > 0 { text += "; " + SampleCounts.appliedBefore(duplicates) }
        return text
    }
}

extension ImportSummary {
    /// What a folder import's entry adds for its account to the members it has anyway (`kind`, `records`, the counts
    /// of all stores together, `duplicates`): `stores` (each store's counts), `heartRateReadings`, `skipped` (by
    /// reason), `passedOver`, `notes`.
    var members: JSONObject {
        var object = JSONObject()
        object["stores"] = .object(JSONObject(HealthStore.allCases.compactMap { store in
            samples[store].map { (store.rawValue, .object($0.members)) }
        }))
        object["heartRateReadings"] = .number(JSONNumber(heartRateReadings))
        object["skipped"] = .object(JSONObject(skipped.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) }))
        object["passedOver"] = .number(JSONNumber(passedOver))
        object["notes"] = .array(notes.map { .string($0) })
        return object
    }

    /// The account `members` wrote, or nil when they hold none (`stores` absent).
    init?(members: JSONMembers, kind: String, records: Int, duplicates: Int) throws(JSONPathError) {
        guard let stores = try members.members("stores") else { return nil }
        self.init(kind: kind)
        self.records = records
        self.duplicates = duplicates
        for store in HealthStore.allCases {
            guard let counts = try stores.members(store.rawValue) else { continue }
            samples[store] = try SampleCounts(members: counts) { (key) throws(JSONPathError) in
                Int(try counts.requiredInteger(key))
            }
        }
        heartRateReadings = Int(try members.integer("heartRateReadings") ?? 0)
        if let skipped = try members.members("skipped") {
            for (key, _) in skipped.object { self.skipped[key] = Int(try skipped.requiredInteger(key)) }
        }
        passedOver = Int(try members.integer("passedOver") ?? 0)
        notes = try members.strings("notes") ?? []
    }
}
