import RHRJSON
import Foundation
import RHRDaemon
import RHRFormats

/// The daemon part of `rhr status`: what the daemon on the socket says of itself, or that none listens.
enum DaemonStatus {
    static func report(socketPath: String) -> String {
        let reply: JSONValue
        do {
            let client = try DaemonClient(socketPath: socketPath, timeout: 2)
            reply = try client.request(.status, timeout: 5)
        } catch {
            if error.kind == .notListening { return "daemon: no daemon listening on \(socketPath)\n" }
            return "daemon: \(socketPath): \(error.message)\n"
        }
        guard reply["ok"]?.bool == true else {
            return "daemon: \(socketPath): \(reply["error"]?["message"]?.string ?? "status refused")\n"
        }
        func int(_ key: String) -> Int64 { reply[key]?.int64 ?? 0 }
        let clients = int("clients"), subscribers = int("subscribers")
        var lines = [
            "daemon: listening on \(reply["socket"]?.string ?? socketPath) (pid \(int("pid")), rhr \(reply["version"]?.string ?? "?")), "
                + "up \(duration(reply["uptime"]?.double ?? 0))",
            "  clients: \(clients) connected, \(subscribers) subscribed",
            "  revision: \(int("revision"))",
        ]
        let streams = reply["streams"]?.array ?? []
        lines.append(streams.isEmpty ? "  cursors: no streams yet" : "  cursors:")
        for stream in streams {
            let name = "\(stream["store"]?.string ?? "?")/\(stream["stream"]?.string ?? "?")"
            let cursor = stream["cursor"]?.string.map { "cursor \($0)" } ?? "no cursor"
            lines.append("    \(name): \(cursor)" + (stream["asOf"]?.string.map { ", as of \($0)" } ?? ""))
        }
        let watch = reply["watch"]
        let directories = watch?["directories"]?.array?.compactMap(\.string) ?? []
        if directories.isEmpty {
            lines.append("  folder watch: off")
        } else {
            lines.append("  folder watch: \(directories.joined(separator: ", "))")
            let imports = (watch?["imports"]?.array ?? []).compactMap(WatchImport.init(json:))
            lines.append(imports.isEmpty ? "  last folder imports: none yet" : "  last folder imports:")
            for entry in imports.reversed() {
                lines.append("    \(entry.at.formatted(.iso8601)) \(entry.summary)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
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
