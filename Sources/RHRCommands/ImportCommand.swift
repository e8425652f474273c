import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// `rhr import PATH...`: each file is read whole, then applied whole or not at all.
enum ImportCommand {
    static let command = Command(
        name: "import", arguments: "[--force] PATH...",
        summary: "import exports or sync batch files into the store",
        options: [.flag("force", "import an export older than the newest one already imported (adds, never removes)")],
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let paths = invocation.arguments.positionals
        guard !paths.isEmpty else { throw UsageError("rhr import needs at least one PATH") }
        var options = try importOptions(invocation)
        options.allowOlderExport = invocation.arguments.has("force")
        let store = try openStore(invocation)
        var failed = false
        for path in paths {
            do {
                let line = try importFile(path, into: store, options: options, output: invocation.output)
                invocation.output.print(line)
            } catch {
                failed = true
                invocation.output.error("rhr import: \(error)")
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
        let bar = output.stderrIsTerminal ? ProgressBar(label: (path as NSString).lastPathComponent, output: output) : nil
        let imported: ImportedFile
        do {
            imported = try FileImporter.read(path: path, options: options, progress: bar?.update)
        } catch {
            bar?.clear()
            throw CommandFailure(error.description)
        }
        let outcomes: [BatchOutcome]
        do {
            outcomes = try store.apply(imported.batches)
        } catch {
            bar?.clear()
            let hint = error.code == .olderSnapshot ? " (rhr import --force)" : ""
            throw CommandFailure("\(path): \(error.message)\(hint)")
        }
        bar?.clear()
        return resultLine(imported, outcomes)
    }

    /// "export.xml: Apple Health export (XML): 1,204,311 records read; HealthKit resting samples 31 added,
    /// 1 replaced, 1 deleted, 2 out of range (kept, excluded from the trend)". A file of sync batches may hold
    /// both stores: each gets its own counts, named (R1).
    static func resultLine(_ imported: ImportedFile, _ outcomes: [BatchOutcome]) -> String {
        var totals: [HealthStore: BatchOutcome] = [:]
        for (batch, o) in zip(imported.batches, outcomes) {
            var total = totals[batch.store] ?? BatchOutcome()
            total.added += o.added
            total.replaced += o.replaced
            total.deleted += o.deleted
            total.unchanged += o.unchanged
            total.outOfRange += o.outOfRange
            totals[batch.store] = total
        }
        func counts(_ total: BatchOutcome) -> String {
            "resting samples \(Wording.grouped(total.added)) added, \(Wording.grouped(total.replaced)) replaced, "
                + "\(Wording.grouped(total.deleted)) deleted, \(Wording.grouped(total.outOfRange)) out of range "
                + "(kept, excluded from the trend)"
                + (total.unchanged > 0 ? ", \(Wording.grouped(total.unchanged)) unchanged" : "")
        }
        let perStore = HealthStore.allCases.compactMap { store in totals[store].map { "\(store.displayName) " + counts($0) } }
        var line = "\(imported.path): \(imported.kind): \(Wording.grouped(imported.recordsRead)) records read; "
            + (perStore.isEmpty ? counts(BatchOutcome()) : perStore.joined(separator: "; "))
        let duplicates = outcomes.filter(\.duplicate).count
        if duplicates > 0 { line += "; \(duplicates) batch\(duplicates == 1 ? "" : "es") applied before" }
        for (reason, count) in imported.skipped.sorted(by: { $0.key < $1.key }) {
            line += "; \(Wording.grouped(count)) skipped: \(reason)"
        }
        return line
    }
}
