import Foundation
import RHRCore
import RHRDaemonClient
import RHRLive

/// The daemon part of `rhr status`: what the daemon on the socket says of itself, or that none listens. A daemon that
/// serves another store is said to, and nothing of it is shown as this store's.
enum DaemonStatus {
    static func report(socketPath: String, storePath: String, zone: TimeZone) -> String {
        let status: StatusReply
        do {
            let client = try DaemonClient(socketPath: socketPath, timeout: 2)
            status = try client.request(.status, timeout: 5).decode()
        } catch {
            if error.code == .notListening { return "daemon: no daemon listening on \(socketPath)\n" }
            return "daemon: \(socketPath): \(error.message)\n"
        }
        guard DaemonFeed.sameFile(status.store, storePath) else {
            return "daemon: the daemon on \(status.socket) serves another store, \(status.store); none serves this one there "
                + "(rhr daemon --store \(storePath) --socket PATH)\n"
        }
        return lines(status, zone: zone).joined(separator: "\n") + "\n"
    }

    /// Times in `zone`, with their offset, as the rest of `rhr status` gives them.
    static func lines(_ status: StatusReply, zone: TimeZone) -> [String] {
        var lines = [
            "daemon: listening on \(status.socket) (pid \(status.pid), rhr \(RHRVersion.describe(version: status.version, build: status.build))), "
                + "up \(duration(status.uptime))",
            "  clients: \(status.clients) connected, \(status.subscribers) subscribed",
            "  revision: \(status.revision)",
        ]
        lines.append(status.streams.isEmpty ? "  cursors: no streams yet" : "  cursors:")
        for stream in status.streams {
            let cursor = stream.cursor.map { "cursor \($0)" } ?? "no cursor"
            lines.append("    \(stream.store.rawValue)/\(stream.stream): \(cursor)"
                + (stream.asOf.map { ", " + AsOfWording.exact($0) } ?? ""))
        }
        if let http = status.http {
            lines.append("  phone feeds: \(http.tls ? "https" : "http")://\(http.address)/v1/, \(http.requests) "
                + "request\(http.requests == 1 ? "" : "s") answered")
            // Which side failed, when an app says it sent: each token's accepted and refused requests, and why the last
            // one was refused.
            for feed in http.feeds {
                let refusal = feed.lastRefusal.map { refusal in
                    "; last refused \(Timestamp(date: refusal.at, offsetSeconds: 0).at(zone).iso8601)"
                        + (refusal.status > 0 ? " with \(refusal.status)" : "") + ": \(refusal.reason)"
                } ?? ""
                lines.append("    \(feed.token.map { "token \($0)" } ?? "without a known token"): \(feed.accepted) accepted, "
                    + "\(feed.refused) refused" + refusal)
            }
        } else {
            lines.append("  phone feeds: off (rhr daemon --http ADDR:PORT)")
        }
        if status.watchDirectories.isEmpty {
            lines.append("  folder watch: off")
        } else {
            lines.append("  folder watch: \(status.watchDirectories.joined(separator: ", "))")
            lines.append(status.imports.isEmpty ? "  last folder imports: none yet" : "  last folder imports:")
            for entry in status.imports.reversed() {
                lines.append("    \(Timestamp(date: entry.at, offsetSeconds: 0).at(zone).iso8601) \(entry.summary)")
            }
            // Files the watch will try again: not imported, not forgotten.
            if !status.waiting.isEmpty { lines.append("  waiting to be imported (tried again, later each time):") }
            for file in status.waiting {
                lines.append("    \(file.reason) (\(Wording.count(file.attempts, "try", plural: "tries")) since "
                    + "\(Timestamp(date: file.since, offsetSeconds: 0).at(zone).iso8601); next "
                    + "\(Timestamp(date: file.next, offsetSeconds: 0).at(zone).iso8601))")
            }
        }
        return lines
    }

    /// "42 s", "3 min 5 s", "2 h 14 min", "3 d 4 h".
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) d \(s % 86_400 / 3600) h"
    }
}
