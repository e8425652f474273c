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
        let options = try importOptions(invocation)
        let verbose = invocation.arguments.has("verbose")
        // Opened at the first file read: a failed import creates no store, and no directory for one.
        var store: HealthDatabase?
        var failed = false
        for path in paths {
            do {
                let lines = try importFile(path, into: { () throws -> HealthDatabase in
                    if let store { return store }
                    let opened = try openStore(invocation)
                    store = opened
                    return opened
                }, options: options, output: invocation.output, verbose: verbose)
                for line in lines { invocation.output.print(line) }
            } catch {
                failed = true
                invocation.report("\(error)")
            }
        }
        return failed ? 1 : 0
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
    static func importFile(_ path: String, into store: () throws -> HealthDatabase, options: ImportOptions, output: Output,
                           verbose: Bool) throws -> [String] {
        let bar = output.stderrIsTerminal ? ProgressBar(label: PathText.lastComponent(path), output: output) : nil
        defer { bar?.clear() }
        let imported: ImportedFile
        var tally = BatchTally()
        do {
            imported = try FileImporter.open(path: path, options: options, progress: bar?.update)
            // A file of batches whose first line does not read is refused before the store is opened.
            try imported.stream?.readAhead()
            try store().apply(from: imported.source) { batch, outcome in tally.add(outcome, of: batch.store) }
        } catch let error as InputError {
            throw CommandFailure(error.description)
        } catch let error as StoreError {
            throw CommandFailure("\(path): \(error.message)")
        }
        let passedOver = imported.passedOver
        var lines = ["\(imported.path): " + ImportSummary.words(imported, tally)]
        lines += passedOver.summaryLines.map { "\(path): " + $0 }
        if verbose {
            for record in passedOver.records {
                lines.append("\(path):     \(record.place): \(record.reason): \(PassedOverRecord.quote(record.raw, limit: 1000))")
            }
        }
        return lines
    }
}
