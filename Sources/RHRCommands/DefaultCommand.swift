import Foundation
import RHRCore
import RHRDashboard

/// `rhr [PATH...]`: imports PATHs into a temporary store first, then shows the store.
enum DefaultCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        if invocation.arguments.positionals.isEmpty {
            return try DashboardCommand.show(storePath: invocation.storePath, source: invocation.storePath,
                                             stateKey: StorePath.absolute(invocation.storePath), invocation: invocation)
        }
        let options = try ImportCommand.importOptions(invocation)
        let temporary = try TemporaryStore()
        let store = try temporary.open(machineZone: invocation.machineZone)
        var failures: [ImportFailure] = []
        func fail(_ path: String, _ error: any Error) {
            failures.append(ImportFailure(file: path, message: "\(error)"))
            invocation.report("\(error)")
        }
        // A folder's inputs (`InputFolder`), said nothing of: the dashboard shows what came of them.
        for path in ImportCommand.files(invocation.arguments.positionals, say: { _ in }, fail: fail) {
            do {
                _ = try ImportCommand.importFile(path, into: store, options: options, output: invocation.output)
            } catch {
                fail(path, error)
            }
        }
        let count = invocation.arguments.positionals.count
        // A temporary store has no lasting path: its view is kept for the files it was made of.
        let key = "files: " + invocation.arguments.positionals.map(StorePath.absolute).joined(separator: "; ")
        let shown = try DashboardCommand.show(storePath: temporary.path,
                                              source: "a temporary store of \(count) file\(count == 1 ? "" : "s")",
                                              stateKey: key, invocation: invocation, importFailures: failures, temporary: true)
        return failures.isEmpty ? shown : 1
    }
}
