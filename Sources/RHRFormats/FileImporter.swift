import Foundation
import RHRCore
import RHRSystem

/// Picks the reader for a file by its content (`InputKind`) and runs it (`read`), or opens a file of sync batches to be
/// read as the store applies it (`open`, what `rhr import` and the folder watch do: bounded memory at any size).
///
/// A file that can be read only once (a pipe, a FIFO, `<(…)`) is opened once and its kind told from its first
/// bytes. XML, sync batches and HC Webhook JSON are then read from it as it comes; a zip, a database or Health Auto
/// Export JSON, whose readers open the file by its path themselves, is first spooled to a private temporary file no larger than
/// `ImportOptions.temporaryCopyLimit`, removed afterwards (docs/design.md sections 2 and 8).
public enum FileImporter {
    /// The file read whole: its batches in memory.
    public static func read(path: String, options: ImportOptions = ImportOptions(),
                            progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        try collected(open(path: path, options: options, progress: progress))
    }

    /// The file read, but a file of sync batches only opened (`ImportedFile.stream`): its lines are read as the store
    /// applies its batches (`ImportedFile.source`). What fails then is the file's `InputError`, with its kind said.
    public static func open(path: String, options: ImportOptions = ImportOptions(),
                            progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        guard let input = try OnceReadInput.open(path) else {
            return try readFile(path: path, options: options, progress: progress)
        }
        return try open(input, options: options, progress: progress)
    }

    /// A file opened to stream, read: its batches in memory.
    private static func collected(_ opened: ImportedFile) throws(InputError) -> ImportedFile {
        var file = opened
        if let stream = file.stream {
            while let batch = try stream.next() { file.batches.append(batch) }
            (file.recordsRead, file.heartRateRead) = (stream.recordsRead, stream.heartRateRead)
            file.stream = nil
        }
        return file
    }

    /// What every message calls standard input.
    public static let standardInput = "standard input"

    /// `openStandardInput`, read: its batches in memory.
    public static func readStandardInput(options: ImportOptions = ImportOptions(),
                                         progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        try collected(openStandardInput(options: options, progress: progress))
    }

    /// `rhr import -`: standard input, told by its content and named "standard input". A pipe is read once as any pipe
    /// is (streamed, or spooled, bounded, for a reader that opens its file by path); a file on it (`rhr import - <
    /// export.zip`) is read as that file. A terminal is refused: nobody types an export. Sync batches are only opened,
    /// as `open` opens them.
    public static func openStandardInput(options: ImportOptions = ImportOptions(),
                                         progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { throw InputError(path: standardInput, message: "is closed") }
        if isatty(STDIN_FILENO) != 0 {
            throw InputError(path: standardInput, message: "is a terminal; pipe a file into it (cat export.xml | rhr import -) "
                + "or give the file's path")
        }
        if info.st_mode & S_IFMT == S_IFREG {
            let file = try named(standardInput, reading: "/dev/stdin") { () throws(InputError) in
                try readFile(path: "/dev/stdin", spooledFrom: standardInput, options: options, progress: progress)
            }
            return stamp(file, zone: options.machineZone, madeAt: { _ in nil })
        }
        return try open(try OnceReadInput.standardInput(named: standardInput), options: options, progress: progress)
    }

    /// An input that can be read only once: its kind from its first bytes, then streamed, or spooled to a file.
    private static func open(_ input: OnceReadInput, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let path = input.path
        let head = try input.head(InputKind.headSize)
        // A pipe's time is not when its contents were made: its batches name the input and no time.
        if !ArchiveReader.looksLikeZip(head) {
            // Told once, from the head: the readers of these kinds read the input through its registration.
            let kind = try InputKind.detect(head: head, path: path)
            if kind == .appleHealthXML || kind == .syncBatches || kind == .hcWebhookJSON || kind == .healthAutoExportCSV {
                let file = try input.whileRegistered { () throws(InputError) in
                    try read(kind, survey: nil, path: path, options: options, progress: progress)
                }
                return stamp(file, zone: options.machineZone, madeAt: { _ in nil })
            }
        }
        return stamp(try readSpooled(input, head: head, options: options, progress: progress), zone: options.machineZone,
                     madeAt: { _ in nil })
    }

    /// `spooledFrom`: the input `path` is a private copy of, whose file time says nothing of when its contents were made.
    private static func readFile(path: String, spooledFrom: String? = nil, options: ImportOptions,
                                 progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let (kind, survey) = try InputKind.surveyed(path: path, spooledFrom: spooledFrom)
        let file = try read(kind, survey: survey, path: path, options: options, progress: progress)
        guard spooledFrom == nil else { return file }
        let fileTime = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        return stamp(file, zone: options.machineZone) { store in
            // In a zip: the time of the member the batch was read from.
            let member: String? = switch (kind, store) {
            case (.appleHealthZip(let m), _), (.healthConnectZip(let m), _): m
            case (.exports(let kinds), let store?): kinds.lazy.compactMap { kind -> String? in
                switch (kind, store) {
                case (.appleHealthZip(let m), .healthKit), (.healthConnectZip(let m), .healthConnect): m
                default: nil
                }
            }.first
            default: nil
            }
            return member.flatMap { survey?.modified[$0] } ?? fileTime
        }
    }

    /// Names the file in each of its batches, with when it was made (`madeAt`, by the batch's store; nil for a file of
    /// sync batches, whose batches are read later, as it streams them), in the machine's zone (R12: of snapshots of one
    /// instant, the one made later decides).
    private static func stamp(_ file: ImportedFile, zone: TimeZone, madeAt: (HealthStore?) -> Date?) -> ImportedFile {
        var file = file
        let name = PathText.lastComponent(file.path)
        func delivered(_ store: HealthStore?) -> DeliveredFile {
            DeliveredFile(name: name, madeAt: madeAt(store).map { Timestamp(date: $0, offsetSeconds: 0).at(zone) })
        }
        file.stream?.stamp(delivered(nil))
        for i in file.batches.indices { file.batches[i].file = delivered(file.batches[i].store) }
        return file
    }

    /// `survey`: a zip's, which told its kind. An error says what the file was taken for.
    private static func read(_ kind: InputKind, survey: ZipSurvey?, path: String, options: ImportOptions,
                             progress: ImportProgress?) throws(InputError) -> ImportedFile {
        do throws(InputError) {
            return try readKnown(kind, survey: survey, path: path, options: options, progress: progress)
        } catch {
            // "read as a sync batch file (JSON lines): …".
            var error = error
            error.readAs = kind.readAs
            throw error
        }
    }

    private static func readKnown(_ kind: InputKind, survey: ZipSurvey?, path: String, options: ImportOptions,
                                  progress: ImportProgress?) throws(InputError) -> ImportedFile {
        switch kind {
        case .syncBatches:
            return ImportedFile(streaming: try SyncBatchFile(path: path, options: options, progress: progress))
        case .healthConnectDatabase:
            return try HealthConnectReader.read(path: path, options: options, progress: progress)
        case .appleHealthXML:
            return try AppleHealthReader.read(path: path, options: options, progress: progress)
        case .healthAutoExportJSON:
            return try HealthAutoExportReader.read(path: path, options: options, progress: progress)
        case .healthAutoExportCSV:
            return try HealthAutoExportCSVReader.read(path: path, options: options, progress: progress)
        case .hcWebhookJSON:
            return try HCWebhookReader.read(path: path, options: options)
        case .appleHealthZip, .healthConnectZip, .exports:
            let survey = if let survey { survey } else { try ZipSurvey(path: path) }
            return try readZip(path: path, survey: survey, options: options, progress: progress)
        }
    }

    /// Each store's export in the zip is read, as its own batch on its own stream (R1), and the import line
    /// counts each. Of one store's exports only the first is read: an export is one snapshot of its stream (R4),
    /// and two cannot be one. The others are named in the import line's notes (they are no records read). `survey`
    /// told the zip's kind, so it holds an export.
    private static func readZip(path: String, survey: ZipSurvey, options: ImportOptions,
                                progress: ImportProgress?) throws(InputError) -> ImportedFile {
        var files: [ImportedFile] = []
        if !survey.appleExports.isEmpty {
            let file = try AppleHealthReader.read(path: path, options: options, progress: progress)
            files.append(noting(survey.appleExports, of: "Apple Health", in: file))
        }
        if !survey.healthConnectDatabases.isEmpty {
            let file = try HealthConnectReader.read(path: path, options: options, progress: progress)
            files.append(noting(survey.healthConnectDatabases, of: "Health Connect", in: file))
        }
        guard files.count > 1 else { return files[0] }
        return ImportedFile(path: path, kind: .exports(files.map(\.kind)), batches: files.flatMap(\.batches),
                            recordsRead: files.map(\.recordsRead).reduce(0, +),
                            skipped: files.reduce(into: [:]) { $0.merge($1.skipped, uniquingKeysWith: +) },
                            notes: files.flatMap(\.notes), heartRateRead: files.map(\.heartRateRead).reduce(0, +))
    }

    /// The file, with the members of `exports` its reader did not read named in its notes.
    private static func noting(_ exports: [String], of store: String, in file: ImportedFile) -> ImportedFile {
        var file = file
        let taken: String
        switch file.kind {
        case .appleHealthZip(let member), .healthConnectZip(let member): taken = member
        default: return file
        }
        for other in exports where other != taken {
            file.notes.append("another \(store) export in the zip, not read (import it on its own): \(other)")
        }
        return file
    }

    /// Copies a once-read input to a private file and reads that; what is returned and thrown names the input.
    private static func readSpooled(_ input: OnceReadInput, head: [UInt8], options: ImportOptions,
                                    progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let spool: ScratchDirectory
        do {
            spool = try ScratchDirectory(purpose: "pipe", files: ["input"])
        } catch {
            throw InputError.transient(input.path, error.description)
        }
        defer { spool.remove() }
        let fd: Int32
        do { fd = try spool.create("input") } catch { throw InputError.transient(input.path, error.description) }
        var copy = BoundedCopy(descriptor: fd, limit: options.temporaryCopyLimit, inputPath: input.path,
                               what: "the input from the pipe", isCancelled: options.isCancelled)
        let copied = Result { () throws(InputError) in
            try copy.copy(prefix: head, from: { (buffer) throws(InputError) in try input.remaining(into: buffer) })
        }
        close(fd)
        try copied.get()
        let spooled = spool.file("input")
        return try named(input.path, reading: spooled) { () throws(InputError) in
            try readFile(path: spooled, spooledFrom: input.path, options: options, progress: progress)
        }
    }

    /// What `read` returns and throws, named `label` where it names `path` (a private copy, or /dev/stdin): the
    /// file, its error, and the input its passed-over records are kept under (R14).
    private static func named(_ label: String, reading path: String,
                              _ read: () throws(InputError) -> ImportedFile) throws(InputError) -> ImportedFile {
        do {
            var file = try read()
            file.path = label
            file.stream?.relabel(label, reading: path)
            for i in file.batches.indices where file.batches[i].passedOver.source.hasPrefix(path) {
                file.batches[i].passedOver.source = label + file.batches[i].passedOver.source.dropFirst(path.count)
            }
            return file
        } catch {
            var named = error
            if named.path == path { named.path = label }
            throw named
        }
    }
}
