import Foundation
import RHRCore
@testable import RHRDaemon
import RHRFormats
import RHRTestSupport
import Synchronization
import Testing

/// Strings a phone or a client makes up, over the real HTTP feed and the real socket: a NUL never cuts a name or
/// a token, and a control character never names a stream (docs/design.md section 8, `TextGate`).
@Suite("hostile strings over HTTP and the socket")
struct HostileStringTests {
    /// Two points whose sources differ only after a NUL are never one writer cut at the NUL: each value is either
    /// kept under its whole name (a 200 that deletes nothing) or passed over as a record rhr cannot use (R14: its
    /// request, of which nothing could be used, a 422 `nothing_usable`), never stored under "Tester".
    @Test func aNulInAHealthAutoExportSourceNeverCutsTheName() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let watch = try client.postResting(
            [.init("2026-11-27 00:00:00 +0100", 55, source: "Tester\u{0}Watch")], token: token)
        #expect(Self.keptOrPassedOver(watch), "\(watch.text)")
        let phone = try client.postResting(
            [.init("2026-11-27 00:00:00 +0100", 61, source: "Tester\u{0}Phone")], token: token)
        #expect(Self.keptOrPassedOver(phone), "\(phone.text)")
        let stored = try storeDays(daemon.directory.storePath).map { "\($0.writer.name) \($0.bpmText)" }
        #expect(stored.allSatisfy { ["Tester\u{0}Watch 55", "Tester\u{0}Phone 61"].contains($0) }, "\(stored.map { String(reflecting: $0) })")
        #expect(try daemon.directory.store().writers().allSatisfy { $0.writer.name.hasPrefix("Tester\u{0}") })
    }

    @Test func aNulInAnHCWebhookOriginNeverCutsTheName() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        for (origin, bpm) in [("com.example\u{0}one", 57), ("com.example\u{0}two", 60)] {
            let answer = try client.post(HTTPFeedTests.hcw, token: token, json: PhonePayloads.hcWebhook(
                resting: [("2026-11-27T05:58:00Z", bpm)], metadata: PhonePayloads.hcMetadata(origin: origin)))
            #expect(Self.keptOrPassedOver(answer), "\(answer.text)")
        }
        let stored = try storeDays(daemon.directory.storePath).map { "\($0.writer.name) \($0.bpmText)" }
        #expect(stored.allSatisfy { ["com.example\u{0}one 57", "com.example\u{0}two 60"].contains($0) })
        #expect(try daemon.directory.store().writers().allSatisfy { $0.writer.name.hasPrefix("com.example\u{0}") })
    }

    /// A request of one value: kept (200, nothing deleted), or passed over (422 `nothing_usable`, R14).
    static func keptOrPassedOver(_ answer: HTTPResponse) -> Bool {
        answer.status == 200 ? answer.json?["deleted"]?.int64 == 0 : answer.status == 422 && answer.errorCode == "nothing_usable"
    }

    /// The token a phone presents is read whole, through the gate: a control character in it (and junk after it)
    /// is refused with a 400 that names the header and the place, before a byte of the body is read, whichever
    /// header carries it.
    @Test func aTokenWithAControlCharacterIsRefused() throws {
        let (daemon, token, _) = try HTTPFeedTests.phone()
        let body = PhonePayloads.healthAutoExport(resting: [.init("2026-11-27 00:00:00 +0100", 55)])
        for (header, value, words) in [("Authorization", "Bearer \(token)\u{1B}[2J", "a control character (U+001B)"),
                                       ("api-key", "\(token)\u{1}junk", "a control character (U+0001)"),
                                       ("Authorization", "Bearer \(token)\u{9B}junk", "a control character (U+009B)"),
                                       ("api-key", "\(token)\u{7F}", "a control character (U+007F)")] {
            let answer = try daemon.http().request("POST", HTTPFeedTests.hae, headers: [(header, value)], body: body)
            #expect(answer.status == 400, "\(header): \(answer.status) \(answer.text)")
            #expect(answer.errorCode == "bad_request")
            let at = value.unicodeScalars.firstIndex { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
                .map { value.unicodeScalars.distance(from: value.unicodeScalars.startIndex, to: $0) + 1 } ?? 0
            #expect(answer.errorMessage == "the \(header) header holds \(words) at character \(at): "
                + "a token is letters, digits, '-' and '_'")
        }
        #expect(try HTTPFeedTests.revision(daemon) == 0)
        // The token itself still works.
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
    }

    /// A NUL is a control character like the others to rhr (`PhoneFeed` refuses a header holding one), but
    /// libmicrohttpd 0.9.75 (Debian 12's) ends a header's value at a NUL before rhr sees it: `Bearer TOKEN\0junk`
    /// reaches rhr as `Bearer TOKEN` (its value lookup with a length says so too). Known, and said in
    /// docs/design.md section 4b.
    @Test func aTokenWithANulIsRefusedWhereTheServerLibraryShowsIt() throws {
        let head = HTTPRequestHead(method: "POST", path: HTTPFeedTests.hae) { name in
            name == "Authorization" ? "Bearer rhr_abc\u{0}junk" : nil
        }
        #expect(PhoneFeed.presentedToken(head) == .flawed(header: "Authorization", .nul(atScalar: 14)))
        let (daemon, token, _) = try HTTPFeedTests.phone()
        let answer = try daemon.http().request("GET", "/v1/status", headers: [("Authorization", "Bearer \(token)\u{0}junk")])
        withKnownIssue("libmicrohttpd 0.9.75 cuts the header at the NUL, so the token before it is all rhr sees") {
            #expect(answer.status == 400, "\(answer.text)")
        }
    }

    /// A stream is a name the store keys cursors by and `rhr status` prints: a control character in it, or a name
    /// over the gate's bound, is refused with the batch, naming the field.
    @Test func aStreamNamedWithAControlCharacterIsRefused() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        for (stream, words) in [("iphone\u{1B}[31m", "a control character (U+001B) at character 7"),
                                ("a\u{0}b", "a NUL (U+0000) at character 2"),
                                (String(repeating: "s", count: 300), "longer than 256 bytes (300)")] {
            var batch = SyncBatchJSON.encode(chainBatch(stream: "iphone", 1)).object!
            batch["stream"] = .string(stream)
            let reply = try client.request(["op": "push", "id": 1, "batch": .object(batch)])
            #expect(reply.errorCode == "invalid_batch")
            #expect(reply.errorMessage == "batch.stream: \(words)", "\(String(reflecting: reply.errorMessage))")
        }
        #expect(try daemon.directory.store().streams().isEmpty)
    }

    /// The daemon's log names what it watches and imports, paths that may hold anything: written visibly.
    @Test func theLogWritesControlCharactersVisibly() throws {
        let logged = Mutex<[String]>([])
        let directory = try TemporaryDirectory()
        let inbox = directory.file("in\u{1B}[31mbox")
        mkdir(inbox, 0o700)
        let daemon = try TestDaemon(directory: directory) { configuration in
            configuration.watchDirectories = [inbox]
            configuration.log = { line in logged.withLock { $0.append(line) } }
        }
        #expect(eventually { logged.withLock { $0.contains { $0.hasPrefix("watching ") } } })
        let lines = logged.withLock { $0 }
        #expect(lines.contains("watching " + directory.file("in<escape>[31mbox")), "\(lines)")
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy { !TextGate.isControl($0) } })
        _ = daemon
    }
}
