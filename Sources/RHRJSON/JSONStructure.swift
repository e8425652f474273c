/// One open array or object while its members are read.
struct JSONFrame {
    /// Who reads the object's keys, and so how much of them is kept and whether a repeated one is caught.
    enum Keys {
        /// The parser: every key whole, repeats caught (the object holds them).
        case built
        /// A value the scanner passes over: the first 256 bytes of each, for the error path; repeats not caught,
        /// which would need every key kept.
        case passedOver
        /// An object the scanner walks member by member: the first 1,024 bytes (the keys a reader looks for are
        /// short), repeats caught.
        case walked(Set<String>)
    }

    var isObject: Bool
    var keys: Keys
    /// Members or elements finished.
    var count = 0
    var elements: [JSONValue] = []
    var object = JSONObject()
    /// The key whose value is being read (objects).
    var key: String?

    var keptKeyBytes: Int {
        switch keys {
        case .built: return .max
        case .passedOver: return 256
        case .walked: return 1024
        }
    }
}

/// Which of the two a walk over a value is: building it (the parser), or only checking it (the scanner passing
/// over what a reader does not take). One walk, so both refuse the same input with the same error.
protocol JSONWalk {
    static var builds: Bool { get }
}

enum BuildingWalk: JSONWalk { static var builds: Bool { true } }
enum CheckingWalk: JSONWalk { static var builds: Bool { false } }

extension JSONLexer {
    /// `upserted[3].start`: where in the document the lexer is. Very deep paths keep their last part.
    func path() -> String {
        var path = ""
        for (depth, frame) in frames.enumerated() {
            if frame.isObject {
                guard let key = frame.key else { continue }
                path += path.isEmpty ? key : "." + key
            } else {
                let index = depth == frames.count - 1 && afterMember ? frame.count - 1 : frame.count
                path += "[\(index)]"
            }
        }
        return path.utf8.count > 240 ? "…" + String(path.suffix(200)) : path
    }

    /// Reads one value with everything nested in it (white space before it skipped), built or only checked. Frames
    /// below the walk's own (a scanner's, walking a document) name the path of its errors and are left as they are.
    mutating func walk<Mode: JSONWalk>(_: Mode.Type) throws(JSONSyntaxError) -> JSONValue {
        let floor = frames.count
        var value: JSONValue
        readValue: while true {
            afterMember = false
            guard let b = try peek() else { throw fail(at: offset, "expected a value, found the end of the input") }
            switch b {
            case 0x7B, 0x5B:  // { [
                // A container opens: an empty one is a value now; otherwise its first key or element comes next.
                let isObject = b == 0x7B
                if try open(isObject: isObject, keys: Mode.builds ? .built : .passedOver) {
                    continue readValue
                }
                value = Mode.builds ? (isObject ? .object(JSONObject()) : .array([])) : .null
            case 0x22:
                let text = try string(keep: Mode.builds ? .max : 0)
                value = Mode.builds ? .string(text) : .null
            case 0x2D, 0x30...0x39:
                let number = try number(keep: Mode.builds)
                value = Mode.builds ? .number(number) : .null
            case 0x74:
                try literal("true")
                value = .bool(true)
            case 0x66:
                try literal("false")
                value = .bool(false)
            case 0x6E:
                try literal("null")
                value = .null
            case 0x4E, 0x49:  // N I
                throw fail(at: offset, "NaN and Infinity are not JSON numbers")
            default:
                throw fail(at: offset, "expected a value, found \(found())")
            }

            // Add the finished value to the open containers, closing those that end here.
            while frames.count > floor {
                let top = frames.count - 1
                if Mode.builds {
                    if frames[top].isObject {
                        frames[top].object.appendNew(frames[top].key!, value)
                    } else {
                        frames[top].elements.append(value)
                    }
                }
                if try more() { continue readValue }
                let frame = frames.removeLast()
                value = Mode.builds ? (frame.isObject ? .object(frame.object) : .array(frame.elements)) : .null
            }
            // The value is read but not yet a member of the frame below: the path names it, not the one before.
            afterMember = false
            return value
        }
    }

    /// At `{` or `[`: consumes it and, for an object, its first key. False for an empty one (consumed whole, no
    /// frame); true with a frame open at its first member.
    mutating func open(isObject: Bool, keys: JSONFrame.Keys) throws(JSONSyntaxError) -> Bool {
        if frames.count >= maxDepth { throw fail(at: offset, "nesting deeper than \(maxDepth) levels") }
        pos += 1
        if try peek() == (isObject ? 0x7D : 0x5D) {
            pos += 1
            return false
        }
        frames.append(JSONFrame(isObject: isObject, keys: keys))
        if isObject { try key(afterComma: false) }
        return true
    }

    /// After a member of the innermost container: a ',' (and in an object the next key) is true; the container's
    /// end is false, and then its frame is still open.
    mutating func more() throws(JSONSyntaxError) -> Bool {
        let top = frames.count - 1
        let isObject = frames[top].isObject
        frames[top].count += 1
        afterMember = true
        guard let b = try peek() else {
            throw fail(at: offset, isObject ? "expected ',' or '}' after an object member, found the end of the input"
                                            : "expected ',' or ']' after an array element, found the end of the input")
        }
        if b == 0x2C {
            pos += 1
            afterMember = false
            if isObject {
                try key(afterComma: true)
            } else if try peek() == 0x5D {
                throw fail(at: offset, "a trailing ',' is not allowed before ']'")
            }
            return true
        }
        guard b == (isObject ? 0x7D : 0x5D) else {
            throw fail(at: offset, isObject ? "expected ',' or '}' after an object member, found \(found())"
                                            : "expected ',' or ']' after an array element, found \(found())")
        }
        pos += 1
        return false
    }

    /// Reads `"key" :` into the innermost frame, refusing a key it already has (where its reader catches repeats).
    private mutating func key(afterComma: Bool) throws(JSONSyntaxError) {
        let top = frames.count - 1
        frames[top].key = nil
        guard try peek() == 0x22 else {
            if afterComma && pos < end && byte(pos) == 0x7D {
                throw fail(at: offset, "a trailing ',' is not allowed before '}'")
            }
            throw unexpected(afterComma ? "a string key after ','" : "a string key or '}'")
        }
        let keyOffset = offset
        let key = try string(keep: frames[top].keptKeyBytes)
        frames[top].key = key
        var repeated = false
        switch frames[top].keys {
        case .built:
            repeated = frames[top].object.contains(key: key)
        case .passedOver:
            break
        case .walked(var seen):
            // A key cut short is not compared: two long keys may share their first bytes.
            if !scratchCut {
                frames[top].keys = .passedOver
                repeated = !seen.insert(key).inserted
                frames[top].keys = .walked(seen)
            }
        }
        if repeated { throw fail(at: keyOffset, "duplicate key") }
        guard try peek() == 0x3A else { throw unexpected("':' after an object key") }
        pos += 1
    }
}
