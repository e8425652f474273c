import RHRCore

/// A JSON value that is not what a decoder expected, with its place: the JSON path (`upserted[3].start`;
/// empty for the document itself) and what is wrong there.
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// `upserted[3].start: missing`, or the message alone at the top.
    public var description: String { InputPlace(path: path).words(message) }
}

/// The one way rhr reads typed members of a JSON object: sync batches, Health Auto Export files, daemon
/// requests, replies and events. Every error names the member's JSON path.
///
/// The conventions, the same for every reader: an optional member that is absent or `null` is nil; a member
/// of the wrong type is an error (`expected a string, found an integer`); a required member that is absent is
/// `missing`, one that is `null` gets the type message; unknown members are ignored, so newer writers can add
/// fields.
public struct JSONMembers: Sendable {
    public let object: JSONObject
    /// `upserted[3].metadata`; empty for the document itself.
    public let path: String

    public init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// `value` as an object; `expected an object, found an array` at `path` otherwise.
    public init(_ value: JSONValue, path: String) throws(JSONPathError) {
        guard case .object(let object) = value else { throw JSONPathError(path: path, Self.expected("an object", value)) }
        self.init(object, path: path)
    }

    public func childPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public func error(_ key: String, _ message: String) -> JSONPathError { JSONPathError(path: childPath(key), message) }

    /// "expected a string, found an integer".
    public static func expected(_ what: String, _ found: JSONValue) -> String { "expected \(what), found \(found.kindName)" }

    // MARK: - Any value

    /// The member's value; nil when absent or null.
    public func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// The member's value, null included; `missing` (with `why` after it, when given) when absent.
    public func required(_ key: String, why: String? = nil) throws(JSONPathError) -> JSONValue {
        guard let value = object[key] else { throw error(key, "missing" + (why.map { "; " + $0 } ?? "")) }
        return value
    }

    /// An optional member converted by `convert`; a value it refuses is an error saying `expected what`.
    /// (Dates, offsets and enumerations are read through this.)
    public func decode<T>(_ key: String, _ what: String, _ convert: (JSONValue) -> T?) throws(JSONPathError) -> T? {
        guard let value = value(key) else { return nil }
        guard let converted = convert(value) else { throw error(key, Self.expected(what, value)) }
        return converted
    }

    /// The same, required.
    public func requiredDecode<T>(_ key: String, _ what: String, why: String? = nil,
                                  _ convert: (JSONValue) -> T?) throws(JSONPathError) -> T {
        guard let converted = try decode(key, what, convert) else { throw missingOrWrong(key, what, why: why) }
        return converted
    }

    // MARK: - Typed members

    /// An optional string, kept as delivered (empty too) unless `nonEmpty`.
    public func string(_ key: String, nonEmpty: Bool = false) throws(JSONPathError) -> String? {
        guard let text = try decode(key, "a string", \.string) else { return nil }
        if nonEmpty && text.isEmpty { throw error(key, "must not be empty") }
        return text
    }

    /// A required string: names, ids and types are never empty.
    public func requiredString(_ key: String, why: String? = nil) throws(JSONPathError) -> String {
        guard let text = try string(key, nonEmpty: true) else { throw missingOrWrong(key, "a string", why: why) }
        return text
    }

    /// A string or null, nothing else (cursors).
    public func stringOrNull(_ key: String) throws(JSONPathError) -> String? {
        try decode(key, "a string or null", \.string)
    }

    /// An integer literal within `Int64` (`57`, not `57.0`).
    public func integer(_ key: String) throws(JSONPathError) -> Int64? {
        try decode(key, "an integer", \.int64)
    }

    public func requiredInteger(_ key: String, why: String? = nil) throws(JSONPathError) -> Int64 {
        try requiredDecode(key, "an integer", why: why, \.int64)
    }

    /// Any number, as the nearest `Double`.
    public func number(_ key: String) throws(JSONPathError) -> Double? {
        try decode(key, "a number", \.double)
    }

    public func requiredNumber(_ key: String, why: String? = nil) throws(JSONPathError) -> Double {
        try requiredDecode(key, "a number", why: why, \.double)
    }

    public func bool(_ key: String) throws(JSONPathError) -> Bool? {
        try decode(key, "true or false", \.bool)
    }

    public func requiredBool(_ key: String) throws(JSONPathError) -> Bool {
        try requiredDecode(key, "true or false", \.bool)
    }

    public func members(_ key: String) throws(JSONPathError) -> JSONMembers? {
        guard let object = try decode(key, "an object", \.object) else { return nil }
        return JSONMembers(object, path: childPath(key))
    }

    public func requiredMembers(_ key: String, why: String? = nil) throws(JSONPathError) -> JSONMembers {
        guard let members = try members(key) else { throw missingOrWrong(key, "an object", why: why) }
        return members
    }

    public func array(_ key: String) throws(JSONPathError) -> [JSONValue]? {
        try decode(key, "an array", \.array)
    }

    public func requiredArray(_ key: String, why: String? = nil) throws(JSONPathError) -> [JSONValue] {
        try requiredDecode(key, "an array", why: why, \.array)
    }

    /// An array of objects, each with its path (`upserted[3]`).
    public func objects(_ key: String) throws(JSONPathError) -> [JSONMembers]? {
        guard let elements = try array(key) else { return nil }
        var result: [JSONMembers] = []
        result.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            result.append(try JSONMembers(element, path: childPath(key) + "[\(i)]"))
        }
        return result
    }

    public func requiredObjects(_ key: String) throws(JSONPathError) -> [JSONMembers] {
        guard let objects = try objects(key) else { throw missingOrWrong(key, "an array") }
        return objects
    }

    /// An array of strings, each non-empty unless `nonEmpty` is false.
    public func strings(_ key: String, nonEmpty: Bool = true) throws(JSONPathError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            let place = childPath(key) + "[\(i)]"
            guard let text = element.string else { throw JSONPathError(path: place, Self.expected("a string", element)) }
            if nonEmpty && text.isEmpty { throw JSONPathError(path: place, "must not be empty") }
            result.append(text)
        }
        return result
    }

    /// A required member that is absent is `missing`; one that is null gets the type message.
    private func missingOrWrong(_ key: String, _ what: String, why: String? = nil) -> JSONPathError {
        guard let value = object[key] else { return error(key, "missing" + (why.map { "; " + $0 } ?? "")) }
        return error(key, Self.expected(what, value))
    }
}
