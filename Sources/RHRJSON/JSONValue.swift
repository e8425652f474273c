/// A JSON value as RFC 8259 defines it. Made by `JSONParser`, written by `JSONWriter`.
///
/// Numbers remember whether their literal was an integer (and its exact `Int64` value when it fits), so a
/// Health Connect `beatsPerMinute` of `57` is told apart from `57.5` without going through a `Double`.
/// Objects keep their key order for writing; equality of objects ignores the order, as JSON does.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    // MARK: - Accessors: nil when the value is of another kind.

    /// The member named `key` when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var number: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The exact value of an integer literal that fits in `Int64` (`57`, not `57.0` nor `5.7e1`).
    public var int64: Int64? { number?.int64 }

    /// Any number, as the nearest `Double`.
    public var double: Double? { number?.double }

    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// "a string", "an object", …: for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let n): return n.isInteger ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Literals, so tests and encoders can write JSON values the way JSON reads.

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A repeated key in a literal is a programmer error and traps.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { JSONWriter.string(self) }
}

/// A JSON number: the nearest `Double` always, plus the exact `Int64` of an integer literal that fits.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The value as the nearest `Double` (for integers beyond `Int64`, the only value kept).
    public let double: Double
    /// The exact value when the literal was an integer within `Int64`'s range.
    public let int64: Int64?
    /// Whether the literal had neither a fraction nor an exponent (`57`, `-0`, `12345678901234567890`).
    public let isInteger: Bool

    public init(_ value: Int64) {
        self.double = Double(value)
        self.int64 = value
        self.isInteger = true
    }

    public init(_ value: Int) { self.init(Int64(value)) }

    /// A number with a fraction or an exponent. NaN and infinities are not JSON; `JSONWriter` writes `null`.
    public init(_ value: Double) {
        self.double = value
        self.int64 = nil
        self.isInteger = false
    }

    /// The integer literal `-0`: the integer 0 whose `Double` keeps the sign.
    static let negativeZero = JSONNumber(double: -0.0, int64: 0, isInteger: true)

    /// An integer literal beyond `Int64`'s range, kept as the nearest `Double`.
    static func bigInteger(_ value: Double) -> JSONNumber {
        JSONNumber(double: value, int64: nil, isInteger: true)
    }

    private init(double: Double, int64: Int64?, isInteger: Bool) {
        self.double = double
        self.int64 = int64
        self.isInteger = isInteger
    }

    public var description: String {
        var bytes: [UInt8] = []
        JSONWriter.appendNumber(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A JSON object's members in the order they were written, with lookup by key.
///
/// Small objects (the common case: a batch member has a dozen keys) are searched linearly, which beats
/// hashing; objects over `indexThreshold` members also keep a key → position dictionary.
public struct JSONObject: Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]
    private var index: [String: Int]?

    static let indexThreshold = 8

    public init() {
        keys = []
        values = []
        index = nil
    }

    /// A repeated key is a programmer error and traps; the parser reports it as a syntax error instead.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in members {
            precondition(self.index(forKey: key) == nil, "duplicate key \"\(key)\" in a JSON object")
            appendNew(key, value)
        }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    public subscript(position: Int) -> Element { (keys[position], values[position]) }

    // MARK: Lookup

    public func index(forKey key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    public func contains(key: String) -> Bool { index(forKey: key) != nil }

    /// Reading gives the member's value. Writing replaces it in place, appends a new key at the end,
    /// or (with nil) removes it.
    public subscript(key: String) -> JSONValue? {
        get { index(forKey: key).map { values[$0] } }
        set {
            switch (index(forKey: key), newValue) {
            case (let i?, let value?):
                values[i] = value
            case (nil, let value?):
                appendNew(key, value)
            case (let i?, nil):
                keys.remove(at: i)
                values.remove(at: i)
                rebuildIndex()
            case (nil, nil):
                break
            }
        }
    }

    /// Appends a member whose key the caller knows to be new.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        index?[key] = keys.count
        keys.append(key)
        values.append(value)
        if index == nil && keys.count > JSONObject.indexThreshold { rebuildIndex() }
    }

    private mutating func rebuildIndex() {
        guard keys.count > JSONObject.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: keys.count)
        for (i, key) in keys.enumerated() { built[key] = i }
        index = built
    }
}

extension JSONObject: Hashable {
    /// JSON objects are unordered: equal when they have the same keys with equal values.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    /// Order-independent: the members' hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            sum &+= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
