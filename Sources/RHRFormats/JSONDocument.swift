import RHRJSON

/// A whole JSON document given as bytes (a request body of a phone app, docs/design.md section 4b), read the way
/// the readers read their files: a UTF-8 byte order mark is passed over, and a syntax error names `label`, the
/// line and the byte.
enum JSONDocument {
    static func parse(_ bytes: [UInt8], label: String) throws(InputError) -> JSONValue {
        let skip = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        do {
            return try JSONParser.parse(bytes[skip...])
        } catch {
            throw InputError(path: label, line: error.line, offset: Int64(error.offset + skip), message: error.messageWithPath,
                             isSyntaxError: true)
        }
    }
}
