import CArchive
import Foundation
import RHRCore

/// Reads an Apple Health export, `export.zip` under any name or its bare `export.xml` under any name, into one
/// snapshot batch (docs/design.md sections 2 and 4, R3–R5, R8): resting heart rate records become resting samples,
/// heart-rate records per-day context counts, and `ExportDate` the batch's `asOf`.
///
/// It streams in constant memory: a second thread reads the file, or inflates the zip member, into a few 1 MiB
/// blocks that the calling thread scans (a bare file of `Tuning.piecesFrom` bytes or more is scanned in pieces on
/// several threads at once, `AppleHealthPieces`), and nothing of the document is kept but what the batch holds (a
/// resting sample per record, a heart-rate summary per writer and day). `progress` is called on the calling thread, at
/// most ten times a second, with bytes of the file read (for a zip, compressed bytes) of its size; the last call
/// is (size, size). Nothing is returned, and so nothing applied, unless the whole export was read.
public enum AppleHealthReader {
    public static let stream = "apple-health-export"

    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        try read(path: path, options: options, progress: progress, tuning: Tuning())
    }

    /// What a read found, as text that two reads of the same file compare by: watch writers and histograms in order
    /// (a set and a dictionary have none), NaN equal to itself. The fuzz target and `rhr-bench import read --digest`
    /// compare readers with it.
    public static func comparableText(_ file: ImportedFile) -> String {
        let batches = file.batches.map { batch -> String in
            var plain = batch
            plain.watchWriters = []
            plain.writerSpellings = [:]
            plain.passedOver = PassedOverLog()
            plain.heartRate = batch.heartRate.map {
                var day = $0
                day.sedentaryHistogram = [:]
                return day
            }
            return "\(plain) \(batch.watchWriters.sorted()) \(batch.heartRate.map(\.histogramText)) "
                + "\(batch.writerSpellings.sorted { $0.key < $1.key }) \(batch.passedOver.records) \(batch.passedOver.kinds)"
        }
        return "\(batches) \(file.recordsRead) \(file.notes) \(file.skipped.sorted { $0.key < $1.key })"
    }

    /// How the reader works; tests make blocks tiny to cut tags at every byte.
    struct Tuning {
        var blockSize = 1 << 20
        var blocks = 4
        /// Read the bare XML on a second thread too (a zip is always inflated on one).
        var threadedXML = true
        /// A bare XML file of at least `piecesFrom` bytes is scanned in up to `pieces` pieces at once, one a thread
        /// (`AppleHealthPieces`); below, or with one processor, in one.
        var pieces = min(ProcessInfo.processInfo.activeProcessorCount, 4)
        var piecesFrom: Int64 = 16 << 20
        /// Where the pieces start, in place of `AppleHealthPieces.starts` (tests start them at every byte).
        var pieceStarts: [Int64]?
    }

    static func read(path: String, options: ImportOptions, progress: ImportProgress?, tuning: Tuning) throws(InputError) -> ImportedFile {
        let head = try ReadOnlyFile.head(path: path, count: 4096)
        let kind: InputKind
        let source: AppleHealthByteSource
        if ArchiveReader.looksLikeZip(head) {
            let zip = try AppleHealthZipSource(path: path)
            kind = .appleHealthZip(member: zip.member)
            source = zip
        } else if InputKind.isAppleHealthXML(head) {
            kind = .appleHealthXML
            source = try AppleHealthFileSource(path: path)
        } else {
            throw InputError(path: path, message: head.isEmpty ? "the file is empty"
                : "not an Apple Health export: neither a zip nor an XML file whose first KiB holds <HealthData")
        }
        var member: String?
        if case .appleHealthZip(let name) = kind { member = name }
        func inputError(_ e: AppleHealthScanError) -> InputError {
            InputError(path: path, offset: e.offset, message: member.map { "in \($0): \(e.message)" } ?? e.message)
        }

        var scanner = AppleHealthScanner()
        var truncation: AppleHealthScanError?
        let threaded = member != nil || tuning.threadedXML
        do {
            if let file = source as? AppleHealthFileSource, let descriptor = file.regularFileDescriptor,
               case let starts = tuning.pieceStarts ?? (tuning.pieces > 1 && file.total >= tuning.piecesFrom
                   ? AppleHealthPieces.starts(descriptor: descriptor, size: file.total, pieces: tuning.pieces) : []),
               starts.count > 1 {
                (scanner, truncation) = try AppleHealthPieces.scan(descriptor: descriptor, path: path, total: file.total,
                                                                   starts: starts, blockSize: tuning.blockSize, progress: progress)
            } else {
                do {
                    try scan(source, into: &scanner, tuning: tuning, threaded: threaded, progress: progress)
                } catch let error as AppleHealthScanError where error.isTruncation {
                    truncation = error
                }
            }
        } catch let error as AppleHealthScanError {
            throw inputError(error)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: path, message: "\(error)")
        }

        let collector = scanner.collector
        // R14: an export cut short before its first record is refused; one cut later gives the records before the cut,
        // says where it was cut, and replaces nothing (what it lost, it does not speak for).
        var notes: [String] = []
        if let truncation {
            guard collector.recordsRead > 0 else { throw inputError(truncation) }
            let place = member.map { " of \($0)" } ?? ""
            notes.append("cut short at byte \(truncation.offset)\(place) (\(truncation.message)): "
                + "what came before the cut is read, and it replaces nothing")
        }
        // A trimmed or hand-made export may lack ExportDate: it is as of its latest record's end, or without any
        // dated record, of the file's own time; the import line says which.
        let asOf: Timestamp
        if let exportDate = collector.exportDate {
            asOf = exportDate
        } else if let latest = collector.latestEnd {
            asOf = latest
            notes.append("no <ExportDate>: taken as of the latest end date in the file, \(latest.iso8601)")
        } else {
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? Date()
            asOf = Timestamp(date: modified, offsetSeconds: options.machineZone.secondsFromGMT(for: modified))
            notes.append("no <ExportDate> and no dated record: taken as of the file's time, \(asOf.iso8601)")
        }
        // R14: records it could not use, kept raw; their places are bytes of the XML (in a zip, of its member).
        var passedOver = collector.passedOver
        passedOver.source = member.map { "\(path) (\($0))" } ?? path
        let batch = SyncBatch(store: .healthKit, stream: stream, asOf: asOf,
                              // A snapshot of heart data from its first heart record to when it was read: before
                              // that, and without any heart record, it says nothing, and replaces nothing (R4).
                              snapshot: .init(from: collector.earliestHeartStart, to: asOf,
                                              coversResting: collector.earliestHeartStart != nil && truncation == nil,
                                              coversHeartRate: collector.earliestHeartStart != nil && truncation == nil),
                              resting: collector.resting, heartRate: collector.heartRate,
                              watchWriters: collector.watchWriters,
                              origin: "Apple Health export",
                              passedOver: passedOver, writerSpellings: collector.writerSpellings)
        do {
            try batch.validate()
        } catch {
            throw InputError(path: path, message: "\(error)")
        }
        // Out-of-range values are kept, not passed over: the store flags and counts them (`BatchOutcome.outOfRange`).
        var file = ImportedFile(path: path, kind: kind, batches: [batch], recordsRead: collector.recordsRead, notes: notes)
        // The account (docs/design.md R14): every top-level record that is neither resting nor heart rate, nor passed
        // over, is of another type.
        let others = file.recordsRead - file.accounted
        if others > 0 { file.skipped[ImportedFile.otherTypes] = others }
        return file
    }

    /// Feeds the source's blocks to the scanner, carrying each block's unconsumed tail to the front of the next.
    private static func scan(_ source: AppleHealthByteSource, into scanner: inout AppleHealthScanner, tuning: Tuning,
                             threaded: Bool, progress: ImportProgress?) throws -> Void {
        let headroom = AppleHealthScanner.maxTagLength + 64
        let blocks = (0..<max(tuning.blocks, 2)).map { _ in AppleHealthBlock(headroom: headroom, capacity: tuning.blockSize) }
        let handOff = AppleHealthBlockHandOff(blocks: blocks)
        let producer = threaded ? AppleHealthProducer(source: source, handOff: handOff) : nil
        producer?.start()
        defer { producer?.finish() }

        let total = source.total
        var clock = ProgressClock()
        var previous: AppleHealthBlock?
        var carryStart = 0  // in `previous`, relative to its data
        var carry = 0
        var offset: Int64 = 0  // of the current block's data in the input
        while true {
            let block: AppleHealthBlock
            if producer != nil {
                block = handOff.takeFull()
            } else {
                guard let free = handOff.takeFree() else { return }
                free.fill(from: source)
                block = free
            }
            if let error = block.error { throw error }
            if carry > 0, let previous {
                memcpy(block.data - carry, previous.data + carryStart, carry)
            }
            if let previous { handOff.putFree(previous) }
            previous = block
            let region = UnsafeRawBufferPointer(start: block.data - carry, count: carry + block.count)
            let consumed = try scanner.scan(region, base: offset - Int64(carry), atEnd: block.atEnd)
            let rest = region.count - consumed
            carryStart = block.count - rest
            carry = rest
            offset += Int64(block.count)
            if block.atEnd {
                progress?(total, total)
                return
            }
            // A pipe's size is not known (0): what was read so far.
            if let progress, clock.due() { progress(total > 0 ? min(block.consumed, total) : block.consumed, total) }
        }
    }
}

/// Calls progress at most ten times a second.
struct ProgressClock {
    private var last: UInt64 = 0
    mutating func due() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if now - last < 100_000_000 { return false }
        last = now
        return true
    }
}

/// The bare XML, read with `read(2)` in large blocks.
final class AppleHealthFileSource: AppleHealthByteSource {
    private let file: ReadOnlyFile
    var total: Int64 { file.size }
    private(set) var consumed: Int64 = 0

    init(path: String) throws(InputError) {
        file = try ReadOnlyFile(path: path)
        _ = posix_fadvise(file.descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    /// The descriptor of a regular file (not a pipe, a FIFO or a device), which may be read at any offset.
    var regularFileDescriptor: Int32? {
        var info = stat()
        guard file.size > 0, fstat(file.descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return file.descriptor
    }

    deinit { file.close() }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        do {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
            consumed += Int64(n)
            return n
        } catch {
            throw InputError(path: error.path, offset: consumed, message: error.message)
        }
    }
}

/// The export's XML member inside a zip, found by its content (the first KiB holds `<HealthData`), whatever the
/// phone's language named it; `export_cda.xml`, workout routes and everything else are passed over.
final class AppleHealthZipSource: AppleHealthByteSource {
    let path: String
    let member: String
    private let archive: ArchiveReader
    /// The member's first bytes, read to recognise it, handed out before the rest.
    private var prefix: [UInt8]
    private var prefixUsed = 0
    let total: Int64

    init(path: String) throws(InputError) {
        self.path = path
        archive = try ArchiveReader(path: path)
        var names: [String] = []
        var found: (String, [UInt8])?
        while let entry = try archive.nextEntry() {
            names.append(entry.name)
            if entry.name.hasSuffix("/") { continue }
            let head = try archive.readPrefix(1024)
            if InputKind.isAppleHealthXML(head) { found = (entry.name, head); break }
        }
        guard let found else {
            throw InputError(path: path, message: "a zip archive without an Apple Health export.xml: "
                + ArchiveReader.memberListing(names))
        }
        member = found.0
        prefix = found.1
        var info = stat()
        total = stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    var consumed: Int64 { archive.compressedOffset }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        if prefixUsed < prefix.count {
            let n = min(count, prefix.count - prefixUsed)
            let used = prefixUsed
            prefix.withUnsafeBytes { _ = memcpy(buffer, $0.baseAddress! + used, n) }
            prefixUsed += n
            return n
        }
        return try archive.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
    }
}
