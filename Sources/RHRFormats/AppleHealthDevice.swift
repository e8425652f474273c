import RHRCore

/// The `device` attribute of an export record: the description HealthKit prints for an `HKDevice`,
/// `<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1>`.
///
/// Fields are read by name, never by position: devices add fields (`localIdentifier:…`), leave some out,
/// and values hold commas (`hardware:Watch2,4`). A field starts at `, ` followed by a name of letters and
/// digits and a colon; anything else belongs to the value before it.
enum AppleHealthDevice {
    /// The device the description names, or nil when it names no field rhr keeps.
    static func parse(_ description: String) -> Device? {
        let fields = fields(description)
        func field(_ name: String) -> String? {
            guard let value = fields[name], !value.isEmpty else { return nil }
            return value
        }
        let device = Device(name: field("name"), manufacturer: field("manufacturer"), model: field("model"),
                            hardware: field("hardware"), software: field("software"))
        return device.isEmpty ? nil : device
    }

    /// The description's fields by name; the first of a repeated name wins.
    static func fields(_ description: String) -> [String: String] {
        var text = Substring(description)
        // `<<HKDevice: 0x…>` names the object, not the device; the description's own `>` closes it.
        if text.hasPrefix("<<"), let close = text.firstIndex(of: ">") {
            text = text[text.index(after: close)...]
        } else if text.hasPrefix("<") {
            text = text.dropFirst()
        }
        if text.hasSuffix(">") { text = text.dropLast() }
        if !text.hasPrefix(", ") { text = ", " + text }

        // A field's `, `, its name and its colon are ASCII bytes, which no other character's UTF-8 holds: the bytes are
        // searched (far faster than scalars' properties), and each value is the text between two fields.
        let bytes = Array(text.utf8)
        var starts: [(nameStart: Int, colon: Int)] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0x2C, bytes[i + 1] == 0x20, let colon = fieldName(bytes, from: i + 2) {
                starts.append((i + 2, colon))
                i = colon + 1
            } else {
                i += 1
            }
        }
        var result: [String: String] = [:]
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].nameStart - 2 : bytes.count
            let name = String(decoding: bytes[start.nameStart..<start.colon], as: UTF8.self)
            let value = String(decoding: bytes[(start.colon + 1)..<end], as: UTF8.self)
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// The index of the colon that ends a field name starting at `start`, if one does: ASCII letters, digits and
    /// `_`, starting with a letter.
    private static func fieldName(_ s: [UInt8], from start: Int) -> Int? {
        func isLetter(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A || b >= 0x61 && b <= 0x7A }
        var i = start
        while i < s.count, isLetter(s[i]) || s[i] >= 0x30 && s[i] <= 0x39 || s[i] == 0x5F {
            i += 1
        }
        guard i > start, i < s.count, s[i] == 0x3A, isLetter(s[start]) else { return nil }
        return i
    }
}
