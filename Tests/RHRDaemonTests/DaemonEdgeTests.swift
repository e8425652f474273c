import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRTestSupport
import Testing

/// The daemon's edges a fuzzing pass found: stopping with clients that never read, blank
/// lines, a last request without a line end, and running out of file descriptors.
@Suite("daemon edges")
struct DaemonEdgeTests {
    /// Events are not acknowledgements: a subscriber that never reads them does not hold up a stop, which ends
    /// well inside the 15 s grace a client that is owed replies would get.
    @Test func aSubscriberThatNeverReadsDoesNotHoldUpAStop() throws {
        let daemon = try TestDaemon { configuration in
            configuration.shutdownGrace = 15
            configuration.sendBufferSize = 4096
        }
        let deaf = try daemon.subscriber()
        defer { deaf.close() }  // open, and never reading, until the daemon has stopped
        let pusher = try daemon.client()
        // Enough events that they no longer fit in the socket: some wait in the daemon.
        for n in 1...200 { #expect(try pusher.push(chainBatch(stream: "iphone", n)).isOK) }
        daemon.server.stop()
        #expect(daemon.server.waitUntilStopped(timeout: 5))
    }

    /// Every line gets exactly one reply: a blank one is a bad request (docs/daemon.md), so a client counting replies
    /// stays in step, and the connection goes on.
    @Test func aBlankLineGetsABadRequestReply() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        try client.sendRaw(Array("\n   \r\n".utf8) + Array((JSONWriter.string(["op": "hello", "id": "after"]) + "\n").utf8))
        for _ in 0..<2 {
            let blank = try client.nextReply(timeout: 5)
            #expect(blank.errorCode == "bad_request")
            #expect(blank.errorMessage == "an empty line is not a request; send one JSON object per line")
        }
        #expect(try client.nextReply(timeout: 5)["id"]?.string == "after")
    }

    /// `printf '{"op":"hello"}' | nc -U rhr.sock`: the last request has no line end before the client closes its side.
    @Test func aLastRequestWithoutALineEndIsAnswered() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let push = JSONWriter.string(.object(["op": "push", "id": 4, "batch": SyncBatchJSON.encode(chainBatch(stream: "iphone", 1))]))
        try client.sendRaw(Array(push.utf8))
        shutdown(client.fileDescriptor, Int32(SHUT_WR))
        let reply = try client.nextReply(timeout: 5)
        #expect(reply["id"]?.int64 == 4)
        #expect(reply["added"]?.int64 == 1)
        #expect(client.waitForClose(timeout: 5))
        // A cut-off line at the end is answered too, as what it is.
        let cut = try daemon.client()
        try cut.sendRaw(Array(#"{"op":"hel"#.utf8))
        shutdown(cut.fileDescriptor, Int32(SHUT_WR))
        #expect(try cut.nextReply(timeout: 5).errorCode == "bad_json")
        // And whitespace alone at the end, like a blank line.
        let blank = try daemon.client()
        try blank.sendRaw(Array("  ".utf8))
        shutdown(blank.fileDescriptor, Int32(SHUT_WR))
        #expect(try blank.nextReply(timeout: 5).errorCode == "bad_request")
    }

    /// Out of descriptors, the daemon backs off and says so once, not ten times a second; it accepts again once
    /// descriptors are free. The real binary under a low descriptor limit.
    @Test func runningOutOfDescriptorsIsLoggedOnceAndPassesOver() throws {
        let rhr = try RHRSandbox()
        let binary = try SourceTree.builtProduct("rhr")
        let daemon = try Subprocess.start("/bin/sh", ["-c", #"ulimit -n 40 && exec "$0" daemon"#, binary],
                                          environment: rhr.environment, directory: rhr.home,
                                          stderrFile: rhr.directory.file("daemon.log"))
        defer { daemon.stop() }
        try #require(eventually { DaemonClient.isListening(socketPath: rhr.socketPath) }, "\(rhr.log())")
        // Connections the kernel completes but the daemon cannot accept wait in the listen backlog.
        var clients: [DaemonClient] = []
        for _ in 0..<60 {
            guard let client = try? DaemonClient(socketPath: rhr.socketPath, timeout: 1) else { break }
            clients.append(client)
        }
        #expect(eventually(timeout: 5) { rhr.log().contains("cannot accept a client") })
        // The daemon holds the first `accepted` of them, in the order they connected; the others wait.
        let accepted = try clients[0].request(.status).decode(StatusReply.self).clients
        try #require(accepted > 3 && accepted + 3 < clients.count, "\(accepted) of \(clients.count) accepted")
        // Each client closed frees one descriptor: at its next try the daemon lets the first waiting client in, and
        // the try after it, in the same turn, fails again. Three tries that fail while it is short.
        for round in 0..<3 {
            clients[round].close()
            #expect(try clients[accepted + round].request(.hello).isOK, "round \(round)")
        }
        // Descriptors free again: a new client is served.
        for client in clients { client.close() }
        clients = []
        #expect(eventually(timeout: 5) { (try? DaemonClient(socketPath: rhr.socketPath, timeout: 1).request(.hello, timeout: 2))?.isOK == true })
        #expect(eventually(timeout: 5) { rhr.log().contains("accepting clients again") })
        // The log is in order: with the last line there, every try's line would be.
        let lines = rhr.log().components(separatedBy: "\n").filter { $0.contains("cannot accept a client") }
        #expect(lines.count == 1, "\(rhr.log())")
    }
}
