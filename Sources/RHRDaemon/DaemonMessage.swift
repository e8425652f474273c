import RHRDaemonClient
import RHRJSON

/// The JSON lines the daemon writes: replies from their `DaemonReplyBody`, events from `DaemonEvent`.
enum DaemonMessage {
    static func line(_ object: JSONObject) -> [UInt8] {
        var bytes = JSONWriter.bytes(.object(object))
        bytes.append(0x0A)
        return bytes
    }

    /// `{"ok":true,"id":…}`.
    static func ok(id: JSONValue?) -> [UInt8] { line(okObject(id: id)) }

    /// `{"ok":true,"id":…,…}` with the answer's members.
    static func ok(id: JSONValue?, _ body: some DaemonReplyBody) -> [UInt8] {
        var object = okObject(id: id)
        for (key, value) in body.members { object[key] = value }
        return line(object)
    }

    private static func okObject(id: JSONValue?) -> JSONObject {
        var object: JSONObject = ["ok": true]
        if let id { object["id"] = id }
        return object
    }

    static func error(id: JSONValue?, _ error: ProtocolError) -> [UInt8] {
        var object: JSONObject = ["ok": false]
        if let id { object["id"] = id }
        object["error"] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        return line(object)
    }

    static func event(_ event: DaemonEvent) -> [UInt8] { line(event.message) }
}
