import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemon
import RHRStore
import RHRTestSupport
import Testing

/// `rhr token`, `rhr daemon --http`'s options, and the phone feeds in `rhr status` (docs/design.md section 4b).
@Suite("rhr token and the phone feed options")
struct TokenAndFeedCommandTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    var tokensPath: String { FeedTokens.path(forStore: rhr.sandbox.storePath) }

    @Test func aNewTokenIsPrintedAloneOnceAndOnlyItsHashIsKept() throws {
        let made = rhr.run(["token", "new", "phone"])
        #expect(made.status == 0, "\(made.stderr)")
        let token = try #require(made.stdout.split(separator: "\n").first.map(String.init))
        #expect(made.stdout == token + "\n")
        #expect(token.hasPrefix("rhr_") && token.count == 47)
        #expect(made.stderr.contains("http-phone"))
        // Kept private, and without the token itself.
        let file = try String(contentsOfFile: tokensPath, encoding: .utf8)
        #expect(!file.contains(token) && !file.contains(String(token.dropFirst(4))))
        #expect(FileMode.permissions(tokensPath) == 0o600)
        #expect(FeedTokens(path: tokensPath).check(token) == .known("phone"))
        #expect(FeedTokens(path: tokensPath).check(token + "x") == .unknown)

        let second = rhr.run(["token", "new", "tablet"])
        #expect(second.stdout != made.stdout)
        let list = rhr.run(["token", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").map { $0.prefix(30).split(separator: " ").prefix(3).joined(separator: " ") }
            == ["phone stream http-phone", "tablet stream http-tablet"])
        #expect(!list.stdout.contains(token))
    }

    /// `rhr token list --names`: what the completion scripts ask for (`rhr token revoke <Tab>`): the names alone, never a
    /// token (only hashes are kept), nothing at all without tokens or without a store.
    @Test func theNamesAloneForScriptsAndCompletion() throws {
        #expect(rhr.run(["token", "list", "--names"]) == SubprocessResult(status: 0, stdout: "", stderr: ""))
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
        let tokens = ["tablet", "phone"].map { rhr.run(["token", "new", $0]).stdout }
        let names = rhr.run(["token", "list", "--names"])
        #expect(names == SubprocessResult(status: 0, stdout: "phone\ntablet\n", stderr: ""))
        for token in tokens { #expect(!names.stdout.contains(token.trimmingCharacters(in: .newlines))) }
        #expect(rhr.run(["token", "--names", "list", "--store", rhr.sandbox.home + "/other.sqlite"]).stdout == "")
        let misplaced = rhr.run(["token", "revoke", "phone", "--names"])
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.hasPrefix("rhr token: --names goes with list\n"), "\(misplaced.stderr)")
    }

    @Test func revokeAndTheMistakesTokenCommandsRefuse() throws {
        #expect(rhr.run(["token", "list"]).stdout == "no tokens yet: rhr token new NAME makes one\n")
        let token = rhr.run(["token", "new", "phone"]).stdout.trimmingCharacters(in: .newlines)
        let twice = rhr.run(["token", "new", "phone"])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("a token named phone exists already; revoke it first (rhr token revoke phone)"))
        let badName = rhr.run(["token", "new", "my phone"])
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("cannot name a token"))
        #expect(rhr.run(["token"]).status == 2)
        #expect(rhr.run(["token", "new"]).status == 2)
        #expect(rhr.run(["token", "burn", "phone"]).status == 2)
        let unknown = rhr.run(["token", "revoke", "tablet"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no token named tablet; there are: phone"))
        let revoked = rhr.run(["token", "revoke", "phone"])
        #expect(revoked.status == 0)
        #expect(FeedTokens(path: tokensPath).check(token) == .unknown)
    }

    @Test func theDaemonsHTTPOptionsAreCheckedBeforeAnythingStarts() {
        let offLoopback = rhr.run(["daemon", "--http", "0.0.0.0:8787"])
        #expect(offLoopback.status == 2)
        #expect(offLoopback.stderr.contains("refusing plain HTTP on 0.0.0.0:8787"))
        #expect(offLoopback.stderr.contains("--tls-cert FILE --tls-key FILE"))
        #expect(offLoopback.stderr.contains("--allow-plain-http"))
        #expect(rhr.run(["daemon", "--http", "0.0.0.0:8787", "--tls-cert", "c.pem"]).stderr.contains("--tls-cert and --tls-key go together"))
        #expect(rhr.run(["daemon", "--tls-cert", "c.pem", "--tls-key", "k.pem"]).stderr.contains("--tls-cert goes with --http ADDR:PORT"))
        #expect(rhr.run(["daemon", "--http", "127.0.0.1:8787", "--http-max-body", "lots"]).stderr.contains("--http-max-body lots"))
        #expect(rhr.run(["daemon", "--http", "8787"]).stderr.contains("expected ADDRESS:PORT"))
        let missing = rhr.run(["daemon", "--http", "127.0.0.1:0", "--tls-cert", "nothere.pem", "--tls-key", "nothere.key",
                               "--socket", rhr.sandbox.directory.file("run/rhr.sock")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothere.pem: cannot be read"))
        #expect(ByteSize.parse("64M") == 64 << 20)
        #expect(ByteSize.parse("512KiB") == 512 << 10)
        #expect(ByteSize.parse("1000") == 1000)
        #expect(ByteSize.parse("-1") == nil)
    }

    /// `rhr status` says of each phone feed how far its resting values and heart rate reach, and what to change
    /// on the phone when resting values stopped.
    @Test func statusShowsEachPhoneFeedsFreshness() throws {
        try feedPhone(resting: "2026-11-26", heartRate: "2026-11-30", asOf: "2026-11-30T10:00:00+01:00")
        let status = rhr.run(["status"])
        // Days carry their year when it is not this one.
        let year = thisYear == 2026 ? "" : " 2026"
        #expect(status.stdout.contains("""
              healthkit/http-phone: as of 2026-11-30T10:00:00+01:00, last from Health Auto Export over HTTP, changed at revision 1
                phone feed: last delivered 2026-11-30T10:00:00+01:00; resting values through 26 Nov\(year), heart rate through 30 Nov\(year); \
            resting values stopped arriving while heart rate still does: in Health Auto Export, set the automation's period to Default
            """), "\(status.stdout)")
    }

    var thisYear: Int { LocalDay(epochSeconds: Date().timeIntervalSince1970, offsetSeconds: 0).year }

    /// The default store with what a phone feed delivered: a watch's resting value for `resting`, heart rate for
    /// `heartRate` when given.
    func feedPhone(resting day: String, heartRate: String?, asOf: String) throws {
        try FileManager.default.createDirectory(atPath: rhr.sandbox.dataHome + "/rhr", withIntermediateDirectories: true)
        let store = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
        let resting = RestingSample(store: .healthKit, writer: watch, start: ts("\(day)T00:00:00+01:00").date,
                                    end: ts("\(day)T23:59:59+01:00").date, offsetSeconds: 3600, value: 55)
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "http-phone", asOf: ts(asOf), resting: [resting],
                                      heartRate: heartRate.map { [HeartRateDaySummary(writer: watch, day: LocalDay($0)!, notSet: 4)] } ?? [],
                                      origin: "Health Auto Export over HTTP"))
    }

    /// A day of another year says which ("through 1 Jan" alone would not tell year 1).
    @Test func statusGivesTheYearOfADayNotInThisYear() throws {
        try feedPhone(resting: "2019-07-19", heartRate: nil, asOf: "2019-07-20T10:00:00+01:00")
        let status = rhr.run(["status"])
        #expect(status.stdout.contains("resting values through 19 Jul 2019, no heart rate"), "\(status.stdout)")
    }

    /// `rhr token list` gives when each token was made as `rhr status` gives times: local, with the offset.
    @Test func tokenListTimesAreLocalWithTheirOffset() throws {
        let before = Date().timeIntervalSince1970.rounded(.down)
        _ = rhr.run(["token", "new", "phone"])
        let after = Date().timeIntervalSince1970
        let list = rhr.run(["token", "list"], environment: ["TZ": "Asia/Kolkata"])
        let made = try #require(list.stdout.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(made.hasSuffix("+05:30"), "\(list.stdout)")
        let at = try #require(Timestamp.parse(made))
        // When `token new` ran, to the second the list writes.
        #expect((before...after).contains(at.epochSeconds), "\(made)")
    }
}
