import Foundation
import RHRCore
import RHRStore

/// `rhr status`: the store (path, revision, what each store holds) and every stream's cursor and currency.
enum StatusCommand {
    static let command = Command(
        name: "status", arguments: "", summary: "show the store's state and its streams",
        options: [DaemonCommand.socketOption], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        guard invocation.arguments.positionals.isEmpty else { throw UsageError("rhr status takes no paths") }
        let store = try openStoreForReading(invocation)
        invocation.output.write(try storeReport(store, path: invocation.storePath))
        invocation.output.write(DaemonStatus.report(socketPath: DaemonCommand.socketPath(invocation)))
        return 0
    }

    /// `path` is where the store is (or, before the first import, will be: then `store` is an empty one in memory).
    static func storeReport(_ store: HealthDatabase, path: String) throws -> String {
        let (revision, contents, streams) = try store.read { tx throws(StoreError) in
            (try tx.revision(), try tx.contents(), try tx.streams())
        }
        let made = store.path == path
        var lines = ["store: \(path)" + (made ? "" : " (none yet: rhr import FILE makes it)"), "revision: \(revision)"]
        for c in contents {
            lines.append("\(c.store.displayName): \(c.restingSamples) resting samples from \(c.restingWriters.count) writer"
                + "\(c.restingWriters.count == 1 ? "" : "s"), \(c.heartRateSamples) heart-rate samples from "
                + "\(c.heartRateWriters.count) writer\(c.heartRateWriters.count == 1 ? "" : "s")")
        }
        lines.append(streams.isEmpty ? "streams: none yet" : "streams:")
        for s in streams {
            var line = "  \(s.store.rawValue)/\(s.stream): as of \(s.asOf?.iso8601 ?? "never")"
            if let cursor = s.cursor { line += ", cursor \(cursor)" }
            if !s.origin.isEmpty { line += ", last from \(s.origin)" }
            line += ", changed at revision \(s.revision)"
            lines.append(line)
            for limit in s.permissionLimits { lines.append("    \(limit.words)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
