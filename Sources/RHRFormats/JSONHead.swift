// What the first bytes of a JSON input say of it: the members of its first object, as far as they reach.
import RHRJSON

/// The first object of a JSON input, walked in its first bytes (`InputKind.headSize`): a sync batch file is told by
/// its first line's members (docs/design.md section 4), so a JSON document of another kind (an Oura API pull,
/// `{"hello":"world"}`) is refused as what it is, never as a batch file with a syntax error it does not have.
struct JSONHead {
    /// The first object's members, in order, as far as the head reaches.
    var members: [String] = []
    /// Whether the object ended within the head (so `members` are all of them).
    var isWhole = false
    /// Whether the object went on past its first line: JSON lines hold one value a line, so it is no batch file.
    var spansLines = false
    /// The input starts with an array, not an object.
    var isArray = false

    /// The members a sync batch has at its top (`SyncBatchJSON`).
    static let batchMembers: Set<String> = ["store", "stream", "asOf", "cursor", "fullResync", "upserted", "deleted",
                                            "grantedPermissions"]

    init(_ head: [UInt8]) {
        head.withUnsafeBytes { bytes in
            var scanner = JSONStreamScanner(memory: bytes)
            do {
                try scanner.skipByteOrderMark()
                if try scanner.peek() == UInt8(ascii: "[") {
                    isArray = true
                    return
                }
                var key = try scanner.enterObject()
                while let name = key {
                    members.append(name)
                    try scanner.skipValue()
                    key = try scanner.nextKey()
                }
                isWhole = true
            } catch {
                // Cut off by the head's end, or a mistake: what was read so far is what is known.
            }
            let walked = Int(min(Int64(bytes.count), max(0, scanner.offset)))
            spansLines = bytes[..<walked].contains(UInt8(ascii: "\n"))
        }
    }

    /// Whether the input reads as sync batches: its first object has a batch's member, or could still have one (a
    /// single line longer than the head, which the batch reader then reads whole).
    var isSyncBatch: Bool {
        if members.contains(where: JSONHead.batchMembers.contains) { return true }
        return !isArray && !isWhole && !spansLines
    }

    /// What the refusal says the input is: "JSON whose members (data, next_token) are none of …".
    var words: String {
        if isArray { return "a JSON array, not an object as Health Auto Export, HC Webhook and sync batches write" }
        guard !members.isEmpty else { return "JSON, but none of Health Auto Export's, HC Webhook's or sync batches'" }
        let shown = members.prefix(6).joined(separator: ", ") + (members.count > 6 ? ", …" : "")
        return "JSON whose members (\(shown)) are none of Health Auto Export's, HC Webhook's or a sync batch's"
    }
}
