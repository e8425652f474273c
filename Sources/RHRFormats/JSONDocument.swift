import RHRJSON

/// A whole JSON document given as bytes (a request body of a phone app, docs/design.md section 4b), read the way
/// the readers read their files: a UTF-8 byte order mark is passed over, and a syntax error names `label` and the
/// place (line, column, byte, JSON path).
enum JSONDocument {
    static func parse(_ bytes: [UInt8], label: String) throws(InputError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, byteOrderMark: true)
        } catch {
            throw InputError(path: label, syntax: error)
        }
    }
}
