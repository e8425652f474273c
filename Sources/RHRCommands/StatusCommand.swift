import Foundation
import RHRCore
import RHRStore
import RHRSystem

/// `rhr status`: the store (path, revision, what each store holds) and every stream's cursor and currency.
enum StatusCommand {
    static let command = Command(
        name: "status", operands: .none, summary: "show the store's state and its streams",
        options: [DaemonCommand.socketOption], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let store = try openStoreForReading(invocation)
        let zone = invocation.machineZone
        let today = MachineClock.today(in: zone)
        invocation.output.write(try storeReport(store, path: invocation.storePath, today: today))
        invocation.output.write(DaemonStatus.report(socketPath: DaemonCommand.socketPath(invocation),
                                                    storePath: invocation.storePath, zone: zone))
        return 0
    }

    /// `path` is where the store is (or, before the first import, will be: then `store` is an empty one in memory).
    /// Days carry their year when it is not `today`'s; `today` dates the R10 note on an idle changes token.
    static func storeReport(_ store: HealthDatabase, path: String, today: LocalDay) throws -> String {
        let thisYear = today.year
        let (revision, contents, streams, passedOver) = try store.read { tx throws(StoreError) in
            (try tx.revision(), try tx.contents(), try tx.streams(), try tx.passedOver())
        }
        let made = store.path == path
        var lines = ["store: \(path)" + (made ? "" : " (none yet: rhr import FILE makes it)"), "revision: \(revision)"]
        // Which build last brought it up to date (docs/design.md section 8, version skew).
        if made, let migrator = try store.migratedBy() { lines.append("schema: brought up to date by \(migrator.description)") }
        for c in contents {
            lines.append("\(c.store.displayName): \(Wording.count(c.restingSamples, "resting sample")) from "
                + "\(Wording.count(c.restingWriters.count, "writer")), \(Wording.count(c.heartRateSamples, "heart-rate sample")) from "
                + "\(Wording.count(c.heartRateWriters.count, "writer"))")
            // R9 with R10: heart rate without resting values, and a feed's permissions to blame.
            if let cause = DataDiagnosis.likelyCause(c, streams: streams) { lines.append("  no resting heart rate: likely because " + cause) }
        }
        lines.append(streams.isEmpty ? "streams: none yet" : "streams:")
        for s in streams {
            var line = "  \(s.store.rawValue)/\(s.stream): \(AsOfWording.exact(s.asOf))"
            // A cursor is the feed's own opaque text, of any length: at most the gate's bound of it is printed.
            if let cursor = s.cursor { line += ", cursor \(TextGate.clipped(cursor))" }
            if !s.origin.isEmpty { line += ", last from \(s.origin)" }
            line += ", changed at revision \(s.revision)"
            lines.append(line)
            lines += s.permissionNotes(today: today).map { "    " + $0 }
            if let freshness = FeedFreshness(s) { lines.append("    " + feedLine(freshness, thisYear: thisYear)) }
        }
        lines += passedOverLines(passedOver)
        return lines.joined(separator: "\n") + "\n"
    }

    /// R14: "passed over: 3 records, kept in the store raw:", then a line per kind with its first place.
    static func passedOverLines(_ summary: PassedOverSummary) -> [String] {
        guard summary.total > 0 else { return [] }
        return ["passed over: \(Wording.count(summary.total, "record")), kept in the store raw:"]
            + summary.kinds.map { "  \(Wording.grouped($0.count)) \($0.kind) (\($0.count == 1 ? "" : "first: ")\($0.first))" }
    }

    /// A phone feed's freshness (docs/design.md section 4b): "resting values through 27 Nov, heart rate through
    /// 30 Nov", and when resting values stopped, what to change on the phone.
    static func feedLine(_ freshness: FeedFreshness, thisYear: Int) -> String {
        // Over HTTP the stream's "as of" is when the daemon received its last request; a file's is its newest data.
        let delivered = freshness.overHTTP ? freshness.lastDelivery.map { "last delivered \($0.iso8601); " } : nil
        var line = "phone feed: " + (delivered ?? "") + freshness.throughWords(thisYear: thisYear)
        if freshness.restingStopped {
            line += "; resting values stopped arriving while heart rate still does: \(freshness.phoneAdvice)"
        }
        return line
    }
}
