import RHRJSON
import RHRCore

/// What a subscriber hears (docs/design.md section 4): lines that carry an `event` instead of `ok`. The daemon
/// writes them from this type and clients read them back into it.
public enum DaemonEvent: Sendable, Equatable {
    /// A push or a folder import changed the values of `days`; the store is now at `revision`.
    case changed(revision: Int64, days: [LocalDay])
    /// Read everything again: the store moved without the daemon (`rhr import`), or events were dropped
    /// because the subscriber read too slowly (`dropped` of them).
    case resync(revision: Int64, dropped: Int?, reason: String)
    /// A file the folder watch imported or skipped (its `days` are those the import changed).
    case imported(WatchImport)
    /// An event this rhr does not know (a newer daemon's): ignored.
    case other(name: String)

    public var name: String {
        switch self {
        case .changed: return "changed"
        case .resync: return "resync"
        case .imported: return "imported"
        case .other(let name): return name
        }
    }

    /// The store's revision the event speaks of, when it names one.
    public var revision: Int64? {
        switch self {
        case .changed(let revision, _), .resync(let revision, _, _): return revision
        case .imported(let entry): return entry.revision
        case .other: return nil
        }
    }

    public init(_ message: JSONObject) throws(JSONPathError) {
        let members = JSONMembers(message)
        switch try members.requiredString("event") {
        case "changed":
            self = .changed(revision: try members.requiredInteger("revision"), days: try members.days("days"))
        case "resync":
            self = .resync(revision: try members.requiredInteger("revision"),
                           dropped: try members.integer("dropped").map { Int($0) },
                           reason: try members.string("reason") ?? "")
        case "imported":
            var entry = try WatchImport(members: members)
            entry.days = try members.days("days")
            self = .imported(entry)
        case let name:
            self = .other(name: name)
        }
    }

    /// The event's line, without the line end.
    public var message: JSONObject {
        var object: JSONObject = ["event": .string(name)]
        switch self {
        case .changed(let revision, let days):
            object["revision"] = .number(JSONNumber(revision))
            object["days"] = DaemonEvent.daysValue(days)
        case .resync(let revision, let dropped, let reason):
            object["revision"] = .number(JSONNumber(revision))
            if let dropped { object["dropped"] = .number(JSONNumber(dropped)) }
            object["reason"] = .string(reason)
        case .imported(let entry):
            for (key, value) in entry.json { object[key] = value }
            object["days"] = DaemonEvent.daysValue(entry.days)
        case .other:
            break
        }
        return object
    }

    package static func daysValue(_ days: [LocalDay]) -> JSONValue { .array(days.map { .string($0.description) }) }
}
