import Foundation
import RHRCore

/// A streaming scanner over the raw bytes of an Apple Health `export.xml`, built for speed on multi-gigabyte
/// exports: `memchr` finds each `<`, only the element name is looked at, and only the elements rhr reads are
/// parsed: top-level `Record`s of type resting heart rate and heart rate (with their `MetadataEntry`
/// children) and `ExportDate`. Other top-level records are looked at only for the device that tells an Apple
/// Watch (R3).
///
/// Tolerance, as real exports need: the internal DTD is skipped whole, up to `]>`, so iOS 16's unclosed
/// `<!ATTLIST` does no harm; comments, CDATA sections and processing instructions are skipped; raw control
/// characters (`\x0b`) and CR LF line ends pass; attributes come in any order with either quote and white
/// space or line breaks anywhere XML allows. Elements are counted by depth, so `Record`s nested in a
/// `Correlation`, and `InstantaneousBeatsPerMinute` or `WorkoutStatistics`, are never taken for records.
/// Text between elements, which Apple's DTD does not allow, is passed over.
///
/// The scanner is fed blocks: `scan` consumes what it can and says how much; the caller presents the rest
/// (an incomplete tag, or the last bytes of a comment's possible end) again at the front of the next block.
struct AppleHealthScanner {
    /// A tag longer than this is not an export's (docs/design.md section 8: attribute lengths are bounded).
    static let maxTagLength = 1 << 20

    private enum Mode {
        case content
        /// Inside a comment, CDATA section or processing instruction that began at `start`.
        case skip(Terminator, start: Int64)
        /// Inside `<!DOCTYPE` that began at `start`.
        case doctype(DoctypeState, start: Int64)
    }

    private enum Terminator {
        case comment, cdata, processingInstruction
        var bytes: [UInt8] {
            switch self {
            case .comment: return Array("-->".utf8)
            case .cdata: return Array("]]>".utf8)
            case .processingInstruction: return Array("?>".utf8)
            }
        }
        var what: String {
            switch self {
            case .comment: return "a comment"
            case .cdata: return "a CDATA section"
            case .processingInstruction: return "a processing instruction"
            }
        }
    }

    private enum DoctypeState {
        /// Before the internal subset; inside a quoted literal when `quote` is set.
        case header(quote: UInt8?)
        /// In the internal subset (`[ … ]`), whose declarations may be broken: only comments and `]` count.
        case subset
        case subsetComment
        /// After the subset's `]`, waiting for `>`.
        case afterSubset
    }

    private var mode: Mode = .content
    private var depth = 0
    private var sawRoot = false
    private(set) var closed = false
    var open: OpenRecord?
    var openResting: RestingDetails?
    var openTimeZone: String?
    var days = AppleHealthDayCache()
    var collector = AppleHealthCollector()

    /// A scanner at the start of a document.
    init() {}

    /// A scanner that takes up a document at a place guessed to lie between two top-level elements after the
    /// export date, as `AppleHealthPieces` starts every piece but the first: right only if the scan of the bytes
    /// before ends there `isBetweenTopLevelElements`, which that type checks before it keeps anything of this one.
    static func betweenTopLevelElements() -> AppleHealthScanner {
        var scanner = AppleHealthScanner()
        scanner.depth = 1
        scanner.sawRoot = true
        scanner.collector.followsExportDate = true
        return scanner
    }

    /// Whether the scan stands where `betweenTopLevelElements()` starts: outside any markup, in `<HealthData>`
    /// and no element in it, past the export date (with nothing carried over, which the caller knows).
    var isBetweenTopLevelElements: Bool {
        guard case .content = mode else { return false }
        return depth == 1 && sawRoot && !closed && open == nil && !collector.needsEnds
    }

    /// Scans `buffer`, whose first byte is at `base` in the file. Returns how many bytes were consumed; the
    /// caller presents the rest again at the front of the next call. `atEnd`: no more bytes follow.
    /// `lessThanFollows`: the byte after the buffer is known to be a `<` (where the next piece starts), which ends
    /// a tag at the end of the buffer as it would in a longer one.
    mutating func scan(_ buffer: UnsafeRawBufferPointer, base: Int64, atEnd: Bool,
                       lessThanFollows: Bool = false) throws(AppleHealthScanError) -> Int {
        guard let p = buffer.baseAddress else {
            if atEnd { try finishDocument(at: base) }
            return 0
        }
        let n = buffer.count
        var i = 0
        while true {
            switch mode {
            case .content:
                guard i < n, let hit = memchr(p + i, 0x3C, n - i) else {
                    if atEnd { try finishDocument(at: base + Int64(n)) }
                    return n
                }
                let lt = p.distance(to: UnsafeRawPointer(hit))
                guard let resume = try markup(p, lt, n, base: base, atEnd: atEnd, lessThanFollows: lessThanFollows) else {
                    if atEnd { throw .truncated(at: base + Int64(n), inside: "a tag", startingAt: base + Int64(lt)) }
                    if n - lt > AppleHealthScanner.maxTagLength {
                        throw AppleHealthScanError(offset: base + Int64(lt), message:
                            "a tag longer than \(AppleHealthScanner.maxTagLength) bytes: damaged, or not an Apple Health export")
                    }
                    return lt
                }
                i = resume
            case .skip(let terminator, let start):
                let t = terminator.bytes
                if let end = find(t, in: p, from: i, to: n) {
                    mode = .content
                    i = end
                } else {
                    if atEnd { throw .truncated(at: base + Int64(n), inside: terminator.what, startingAt: start) }
                    // Keep the bytes that may begin the terminator.
                    return max(i, n - (t.count - 1))
                }
            case .doctype(let state, let start):
                let (resume, done) = skipDoctype(p, from: i, to: n, state: state, start: start, atEnd: atEnd)
                if done {
                    mode = .content
                    i = resume
                } else {
                    if atEnd {
                        throw .truncated(at: base + Int64(n), inside: "the document type declaration", startingAt: start)
                    }
                    return resume
                }
            }
        }
    }

    // MARK: - Markup

    @inline(__always)
    func byte(_ p: UnsafeRawPointer, _ k: Int) -> UInt8 { p.load(fromByteOffset: k, as: UInt8.self) }

    /// Handles the markup that starts with the `<` at `lt`. Returns where to go on, or nil when the block ends first.
    private mutating func markup(_ p: UnsafeRawPointer, _ lt: Int, _ n: Int, base: Int64, atEnd: Bool, lessThanFollows: Bool)
        throws(AppleHealthScanError) -> Int? {
        guard lt + 1 < n else { return nil }
        let c1 = byte(p, lt + 1)
        if c1 == 0x21 {  // <!
            if matches(p, lt, n, "<!--") { mode = .skip(.comment, start: base + Int64(lt)); return lt + 4 }
            if matches(p, lt, n, "<![CDATA[") { mode = .skip(.cdata, start: base + Int64(lt)); return lt + 9 }
            if matches(p, lt, n, "<!DOCTYPE") {
                if sawRoot {
                    throw AppleHealthScanError(offset: base + Int64(lt), message: "a document type declaration inside the document")
                }
                mode = .doctype(.header(quote: nil), start: base + Int64(lt))
                return lt + 9
            }
            if n - lt < 9 { return nil }
            throw AppleHealthScanError(offset: base + Int64(lt), message: "unexpected markup '<!' outside the document type declaration")
        }
        if c1 == 0x3F {  // <?
            mode = .skip(.processingInstruction, start: base + Int64(lt))
            return lt + 2
        }
        // An element's tag reaches at most to the next `<`: attribute values cannot hold a raw one.
        let next = memchr(p + lt + 1, 0x3C, n - lt - 1).map { p.distance(to: UnsafeRawPointer($0)) }
        var segmentEnd = next ?? n
        if next == nil && !atEnd && !lessThanFollows {
            // No `<` in the rest of the block (only its last tag comes here): the tag is read once the next `<` is,
            // so that where a block ends never changes what is read; unless it would then be held too long, before a
            // long run of white space that must not count as its length: then it ends where its attributes do.
            guard n - lt > AppleHealthScanner.maxTagLength, let end = Self.tagEnd(p, lt, n) else { return nil }
            segmentEnd = end
        }
        if c1 == 0x2F { return try endTag(p, lt, segmentEnd, bounded: segmentEnd < n || lessThanFollows, base: base) }
        return try startTag(p, lt, segmentEnd, n, base: base)
    }

    /// Whether `b` ends an element's name in a start tag.
    @inline(__always)
    private static func endsName(_ b: UInt8) -> Bool { b == 0x3E || b == 0x2F || AttributeCursor.isSpace(b) }

    /// The index just past the `>` of the tag at `lt` when the block holds it whole (quote-aware), else nil.
    private static func tagEnd(_ p: UnsafeRawPointer, _ lt: Int, _ n: Int) -> Int? {
        if lt + 1 < n && p.load(fromByteOffset: lt + 1, as: UInt8.self) == 0x2F {
            return memchr(p + lt, 0x3E, n - lt).map { p.distance(to: UnsafeRawPointer($0)) + 1 }
        }
        var nameEnd = lt + 1
        while nameEnd < n && !endsName(p.load(fromByteOffset: nameEnd, as: UInt8.self)) { nameEnd += 1 }
        var cursor = AttributeCursor(base: p, start: nameEnd, limit: n)
        while true {
            switch cursor.next() {
            case .attribute: continue
            case .end(_, let end): return end
            case .needMore, .malformed: return nil
            }
        }
    }

    /// `bounded`: the segment ends at a `<` (or where `tagEnd` found the tag's end), not only where the block does.
    private mutating func endTag(_ p: UnsafeRawPointer, _ lt: Int, _ segmentEnd: Int, bounded: Bool, base: Int64)
        throws(AppleHealthScanError) -> Int? {
        let nameStart = lt + 2
        var nameEnd = nameStart
        while nameEnd < segmentEnd {
            let b = byte(p, nameEnd)
            if b == 0x3E || AttributeCursor.isSpace(b) { break }
            nameEnd += 1
        }
        guard let gt = memchr(p + nameEnd, 0x3E, segmentEnd - nameEnd) else {
            if !bounded { return nil }
            throw AppleHealthScanError(offset: base + Int64(lt), message: "an end tag without '>'")
        }
        let name = ByteSpan(start: nameStart, count: nameEnd - nameStart)
        depth -= 1
        if depth < 0 {
            throw AppleHealthScanError(offset: base + Int64(lt), message:
                "the end tag </\(text(p, name))> closes no element")
        }
        if depth == 1, let record = open {
            guard spanEquals(p, name, "Record") else {
                throw AppleHealthScanError(offset: base + Int64(lt), message:
                    "the end tag </\(text(p, name))> closes the Record that starts at byte \(record.offset)")
            }
            open = nil
            collector.finish(record, timeZone: openTimeZone, resting: openResting)
            openResting = nil
            openTimeZone = nil
        } else if depth == 0 {
            guard spanEquals(p, name, "HealthData") else {
                throw AppleHealthScanError(offset: base + Int64(lt), message:
                    "the end tag </\(text(p, name))> closes the document element <HealthData>")
            }
            closed = true
        }
        return p.distance(to: UnsafeRawPointer(gt)) + 1
    }

    private mutating func startTag(_ p: UnsafeRawPointer, _ lt: Int, _ segmentEnd: Int, _ n: Int, base: Int64)
        throws(AppleHealthScanError) -> Int? {
        let nameStart = lt + 1
        var nameEnd = nameStart
        if lt + 7 < segmentEnd && matches(p, nameStart, segmentEnd, "Record") && Self.endsName(byte(p, lt + 7)) {
            nameEnd = lt + 7  // most tags are records
        } else {
            while nameEnd < segmentEnd && !Self.endsName(byte(p, nameEnd)) { nameEnd += 1 }
        }
        let name = ByteSpan(start: nameStart, count: nameEnd - nameStart)
        if name.count == 0 {
            throw AppleHealthScanError(offset: base + Int64(lt), message: "a '<' that starts no element")
        }
        // Fast end: the segment's last non-space byte is the tag's `>` (Apple writes no text between elements).
        var e = segmentEnd - 1
        while e > nameEnd && AttributeCursor.isSpace(byte(p, e)) { e -= 1 }
        var tagEnd: Int
        var selfClosing: Bool
        if e >= nameEnd && byte(p, e) == 0x3E {
            tagEnd = e + 1
            selfClosing = e > lt + 1 && byte(p, e - 1) == 0x2F
        } else {
            // Text after the tag, or a `<` inside a quoted value: walk the attributes to the real end.
            var cursor = AttributeCursor(base: p, start: nameEnd, limit: n)
            walk: while true {
                switch cursor.next() {
                case .attribute: continue
                case .end(let closes, let end):
                    tagEnd = end
                    selfClosing = closes
                    break walk
                case .needMore:
                    return nil
                case .malformed(let at, let expected):
                    throw AppleHealthScanError(offset: base + Int64(at), message: "expected \(expected) in <\(text(p, name))>")
                }
            }
        }

        switch depth {
        case 0:
            guard spanEquals(p, name, "HealthData") else {
                throw AppleHealthScanError(offset: base + Int64(lt), message:
                    "not an Apple Health export: the document element is <\(text(p, name))>, not <HealthData>")
            }
            if sawRoot {
                throw AppleHealthScanError(offset: base + Int64(lt), message: "a second <HealthData> element")
            }
            sawRoot = true
        case 1:
            if spanEquals(p, name, "Record") {
                guard let end = record(p, lt, nameEnd, n, base: base, fastEnd: tagEnd, selfClosing: selfClosing) else {
                    return nil
                }
                // Counted once read: a record the block ends inside is read again, whole, with the next block.
                collector.recordsRead += 1
                if end.tagEnd != tagEnd { tagEnd = end.tagEnd; selfClosing = end.selfClosing }
            } else if spanEquals(p, name, "ExportDate") {
                guard try exportDate(p, lt, nameEnd, n, base: base) else { return nil }
            }
        case 2:
            if open != nil && spanEquals(p, name, "MetadataEntry") {
                guard try metadata(p, lt, nameEnd, n, base: base) else { return nil }
            }
        default:
            break
        }
        if !selfClosing { depth += 1 }
        return tagEnd
    }

    /// `ExportDate`: its `value` is the export's date. Returns false when the block ends inside it: a quoted value
    /// may run on past the `>` the fast end found, and is then read as far as it goes, whatever the blocks.
    private mutating func exportDate(_ p: UnsafeRawPointer, _ lt: Int, _ nameEnd: Int, _ n: Int, base: Int64)
        throws(AppleHealthScanError) -> Bool {
        var cursor = AttributeCursor(base: p, start: nameEnd, limit: n)
        while true {
            switch cursor.next() {
            case .attribute(let name, let raw):
                if spanEquals(p, name, "value") {
                    collector.exportDate = try date(p, raw, "ExportDate value", base + Int64(lt))
                }
            case .end:
                return true
            case .needMore:
                return false
            case .malformed(let at, let expected):
                throw AppleHealthScanError(offset: base + Int64(at), message: "expected \(expected) in ExportDate")
            }
        }
    }

    // MARK: - Skipping

    /// The index just past `terminator` in `p[from..<to]`, if it is there.
    private func find(_ terminator: [UInt8], in p: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        let last = terminator[terminator.count - 1]
        var k = from
        while k < to, let hit = memchr(p + k, Int32(last), to - k) {
            let at = p.distance(to: UnsafeRawPointer(hit))
            let start = at - (terminator.count - 1)
            if start >= from && memcmp(p + start, terminator, terminator.count - 1) == 0 { return at + 1 }
            k = at + 1
        }
        return nil
    }

    /// Skips the document type declaration: the header up to `[` or `>`, then the internal subset up to `]>`
    /// whatever its declarations hold (iOS 16 leaves an `<!ATTLIST` unclosed), minding only comments.
    /// Returns where to go on and whether the declaration ended; when it did not, the index to carry from.
    private mutating func skipDoctype(_ p: UnsafeRawPointer, from: Int, to n: Int, state: DoctypeState, start: Int64,
                                      atEnd: Bool) -> (Int, Bool) {
        var state = state
        var k = from
        while k < n {
            let b = byte(p, k)
            switch state {
            case .header(let quote):
                if let quote {
                    if b == quote { state = .header(quote: nil) }
                } else if b == 0x22 || b == 0x27 {
                    state = .header(quote: b)
                } else if b == 0x5B {  // [
                    state = .subset
                } else if b == 0x3E {
                    return (k + 1, true)
                }
                k += 1
            case .subset:
                if b == 0x5D {  // ]
                    state = .afterSubset
                    k += 1
                } else if b == 0x3C {
                    if k + 4 > n && !atEnd { mode = .doctype(state, start: start); return (k, false) }
                    if matches(p, k, n, "<!--") { state = .subsetComment; k += 4 } else { k += 1 }
                } else {
                    k += 1
                }
            case .subsetComment:
                if b == 0x2D {
                    if k + 3 > n && !atEnd { mode = .doctype(state, start: start); return (k, false) }
                    if matches(p, k, n, "-->") { state = .subset; k += 3 } else { k += 1 }
                } else {
                    k += 1
                }
            case .afterSubset:
                if b == 0x3E { return (k + 1, true) }
                if AttributeCursor.isSpace(b) { k += 1 } else { state = .subset }
            }
        }
        mode = .doctype(state, start: start)
        return (n, false)
    }

    // MARK: - The end

    private func finishDocument(at offset: Int64) throws(AppleHealthScanError) {
        if !sawRoot {
            // The reader let the file in because its head names HealthData: it ends before the document does.
            throw AppleHealthScanError(offset: offset, message:
                "truncated: the file ends at byte \(offset) before <HealthData>; was the export copied whole?")
        }
        if !closed {
            throw AppleHealthScanError(offset: offset, message:
                "truncated: the file ends at byte \(offset) before </HealthData>; was the export copied whole?")
        }
    }

    // MARK: - Bytes

    @inline(__always)
    func bytes(_ p: UnsafeRawPointer, _ span: ByteSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: p + span.start, count: span.count)
    }

    func text(_ p: UnsafeRawPointer, _ span: ByteSpan) -> String {
        String(decoding: bytes(p, ByteSpan(start: span.start, count: min(span.count, 64))), as: UTF8.self)
    }

    func matches(_ p: UnsafeRawPointer, _ at: Int, _ n: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        return at + count <= n && memcmp(p + at, literal.utf8Start, count) == 0
    }
}
