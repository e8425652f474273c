import Foundation
import RHRCore
import RHRStore

/// `rhr [PATH...]`: imports PATHs into a temporary store first, then shows the store.
enum DefaultCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        if invocation.arguments.positionals.isEmpty {
            let store = try openStore(invocation)
            invocation.output.write(try SummaryCommand.report(store: store, aggregation: .latest, days: 14))
            return 0
        }
        let temporary = try TemporaryStore()
        let store = try temporary.open()
        var failed = false
        for path in invocation.arguments.positionals {
            do {
                _ = try ImportCommand.importFile(path, into: store, options: .init(), output: invocation.output)
            } catch {
                failed = true
                invocation.output.error("rhr: \(error)")
            }
        }
        invocation.output.write(try SummaryCommand.report(store: store, aggregation: .latest, days: 14))
        return failed ? 1 : 0
    }
}

/// A store in a fresh private directory, removed when the value goes away.
final class TemporaryStore {
    let directory: String
    var path: String { directory + "/rhr.sqlite" }

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/rhr-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CommandFailure("cannot create a temporary store: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
    }

    func open() throws -> HealthDatabase {
        do { return try HealthDatabase(path: path) } catch { throw CommandFailure(error.message) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
