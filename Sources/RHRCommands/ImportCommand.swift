import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRSystem

/// `rhr import PATH...`: each file is read, then applied whole or not at all; a file of sync batches is read as its
/// batches are applied, in one transaction (bounded memory, docs/design.md section 8).
enum ImportCommand {
    static let command = Command(
        name: "import", operands: .paths,
        summary: "import exports or sync batch files into the store",
        // Kept for scripts written for older versions: an older export now imports as an older snapshot (R12).
        options: [.flag("force", "accepted and ignored: an export older than one already imported needs no force now"),
                  .flag("verbose", "list every record passed over, with its place, reason and text")],
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let paths = invocation.arguments.positionals
        if paths.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read only once") }
        let options = try importOptions(invocation)
        let verbose = invocation.arguments.has("verbose")
        // Opened at the first file read: a failed import creates no store, and no directory for one.
        var store: HealthDatabase?
        var failed = false
        let files = files(paths, say: invocation.output.print, fail: { _, error in
            failed = true
            invocation.report("\(error)")
        })
        // Ctrl-C (or SIGTERM, SIGHUP) says on a line of its own what was imported, then ends rhr by its signal (the shell
        // reports 130 for Ctrl-C): what was read and not yet applied is not in the store (docs/design.md section 8).
        var imported = false
        defer { QuitNote.set(nil) }
        for path in files {
            QuitNote.set("\(invocation.prefix): interrupted: " + (imported ? "nothing more was imported" : "nothing was imported"))
            do {
                let lines = try importFile(path, into: { () throws -> HealthDatabase in
                    if let store { return store }
                    let opened = try openStore(invocation)
                    store = opened
                    return opened
                }, options: options, output: invocation.output, verbose: verbose, dashIsStandardInput: true,
                   committed: { QuitNote.set("\(invocation.prefix): interrupted: \($0) was imported; nothing after it") })
                for line in lines { invocation.output.print(line) }
                imported = true
            } catch {
                failed = true
                invocation.report("\(error)")
            }
        }
        return failed ? 1 : 0
    }

    /// The files `paths` stand for: a folder's inputs, found in it and one level down (`InputFolder`), each in its
    /// place; a file (and `-`) as it is. What a folder holds and passes by is said first (`say`, `InputFolder.lines`);
    /// a folder with nothing to import, or that cannot be read, is handed to `fail`.
    static func files(_ paths: [String], say: (String) -> Void, fail: (String, InputError) -> Void) -> [String] {
        var files: [String] = []
        for path in paths {
            do throws(InputError) {
                guard path != "-", let folder = try InputFolder.survey(path) else {
                    files.append(path)
                    continue
                }
                guard !folder.inputs.isEmpty else { throw folder.refusal }
                folder.lines.forEach(say)
                files += folder.inputPaths
            } catch {
                fail(path, error)
            }
        }
        return files
    }

    /// What every command that imports reads files with: the machine's zone (R5) and the limit of a temporary
    /// copy (`RHR_TEMP_LIMIT`). From here on a signal removes any temporary copy of health data before it ends
    /// the process (docs/design.md section 8).
    static func importOptions(_ invocation: Invocation) throws -> ImportOptions {
        TemporaryFiles.removeOnSignals()
        var options = ImportOptions(machineZone: invocation.machineZone)
        do {
            options.temporaryCopyLimit = try TemporaryCopyLimit.bytes(environment: invocation.environment)
        } catch {
            throw CommandFailure(error.description)
        }
        return options
    }

    /// Reads one file, applies its batches in one transaction, and returns the result line.
    static func importFile(_ path: String, into store: HealthDatabase, options: ImportOptions, output: Output) throws -> String {
        try importFile(path, into: { store }, options: options, output: output, verbose: false)[0]
    }

    /// Reads one file, then opens the store (`store`, asked only once the file was read) and applies its batches in
    /// one transaction (a file of sync batches is read as they are applied). Returns the result line, and what was
    /// passed over (R14): one line per kind, with `verbose` every record.
    /// `dashIsStandardInput`: `rhr import -` reads standard input (`rhr -` opens the dashboard on a file named "-").
    /// `committed`: told the file's name once the store holds it, before a quit signal kept meanwhile ends rhr.
    static func importFile(_ path: String, into store: () throws -> HealthDatabase, options: ImportOptions, output: Output,
                           verbose: Bool, dashIsStandardInput: Bool = false,
                           committed: ((String) -> Void)? = nil) throws -> [String] {
        let standardInput = path == "-" && dashIsStandardInput
        let name = standardInput ? FileImporter.standardInput : path
        let bar = output.stderrIsTerminal ? ProgressBar(label: PathText.lastComponent(name), output: output) : nil
        defer { bar?.clear() }
        let imported: ImportedFile
        var tally = BatchTally()
        do {
            imported = standardInput ? try FileImporter.openStandardInput(options: options, progress: bar?.update)
                : try FileImporter.open(path: path, options: options, progress: bar?.update)
            // A file of batches whose first line does not read is refused before the store is opened.
            try imported.stream?.readAhead()
            // A quit signal waits for the store's write, then says what became of this file (`QuitNote`); while a file
            // of batches is read inside its transaction, one ends rhr at once, and only the commit is waited for.
            let source = QuitAtTheEnd(imported.source, holding: imported.stream != nil)
            let applied = try QuitNote.holding(if: imported.stream == nil) {
                defer { source.releaseHold() }
                let applied = try store().apply(from: source) { batch, outcome in tally.add(outcome, of: batch.store) }
                if applied == .applied { committed?(imported.path) }
                return applied
            }
            // R14: a file of which not one record could be used kept what it passed over, and moved no "as of".
            if applied == .passedOverOnly {
                let why = imported.unusable ?? PassedOverLog.words(imported.passedOver.total)
                throw CommandFailure("nothing in \(name) could be used: \(why)")
            }
        } catch let error as InputError {
            throw CommandFailure(error.description)
        } catch let error as StoreError {
            throw CommandFailure("\(name): \(error.message)")
        }
        let passedOver = imported.passedOver
        var lines = ["\(imported.path): " + ImportSummary.words(imported, tally)]
        lines += passedOver.summaryLines.map { "\(name): " + $0 }
        if verbose {
            for record in passedOver.records {
                lines.append("\(name):     \(record.place): \(record.reason): \(PassedOverRecord.quote(record.raw, limit: 1000))")
            }
        }
        return lines
    }
}

/// A source whose end begins to keep quit signals (`QuitNote.hold`): the store commits after its last batch.
private final class QuitAtTheEnd: BatchSource {
    private let source: any BatchSource
    private var holds: Bool

    init(_ source: any BatchSource, holding: Bool) {
        self.source = source
        holds = holding
    }

    func nextBatch() throws -> SyncBatch? {
        let batch = try source.nextBatch()
        if batch == nil && holds {
            QuitNote.hold()
            holds = false
            held = true
        }
        return batch
    }

    var place: String? { source.place }

    private var held = false

    /// Lets quit signals through again, when the end held them.
    func releaseHold() {
        if held { QuitNote.release() }
        held = false
    }
}
