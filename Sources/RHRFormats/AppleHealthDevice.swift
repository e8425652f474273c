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

        let scalars = Array(text.unicodeScalars)
        var starts: [(nameStart: Int, colon: Int)] = []
        var i = 0
        while i + 2 < scalars.count {
            if scalars[i] == ",", scalars[i + 1] == " ", let colon = fieldName(scalars, from: i + 2) {
                starts.append((i + 2, colon))
                i = colon + 1
            } else {
                i += 1
            }
        }
        var result: [String: String] = [:]
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].nameStart - 2 : scalars.count
            let name = String(String.UnicodeScalarView(scalars[start.nameStart..<start.colon]))
            let value = String(String.UnicodeScalarView(scalars[(start.colon + 1)..<end]))
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// The index of the colon that ends a field name starting at `start`, if one does.
    private static func fieldName(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        var i = start
        while i < s.count, s[i].isASCII, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) || s[i] == "_" {
            i += 1
        }
        guard i > start, i < s.count, s[i] == ":", ("a"..."z").contains(s[start]) || ("A"..."Z").contains(s[start]) else {
            return nil
        }
        return i
    }
}
