import RHRCore
import RHRJSON

/// R14 for the JSON readers (Health Auto Export, HC Webhook, sync batches): a record (a point, an upsert) whose JSON
/// rhr cannot use is passed over, named by what it is and the member that is wrong, kept as its JSON text.
enum JSONPassOver {
    /// `record`: what the records are, in words ("resting_heart_rate points"); `recordPath`: the record's own path,
    /// which `error.path` extends with the member that is wrong.
    static func record(_ record: String, at recordPath: String, value: JSONValue, error: JSONPathError,
                       place: InputPlace) -> PassedOverRecord {
        var member = error.path.hasPrefix(recordPath) ? String(error.path.dropFirst(recordPath.count)) : ""
        if member.hasPrefix(".") { member.removeFirst() }
        let kind = member.isEmpty ? "\(record) of a shape rhr does not read" : "\(record) whose \(member) rhr cannot read"
        return PassedOverRecord(kind: kind, reason: error.description, place: place, raw: JSONWriter.string(value))
    }

    /// The writer named `name`: nil, with the reason, when the name holds a NUL or another control character (R14).
    static func nameFlaw(_ name: String, member: String) -> String? {
        TextGate.flaw(in: name).map { "\(member) \(PassedOverRecord.quote(name)) holds \($0.words)" }
    }
}
