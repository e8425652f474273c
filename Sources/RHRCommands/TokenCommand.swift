import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRStore

/// `rhr token new|list|revoke NAME`: the tokens phones present to the daemon's HTTP feeds (docs/design.md section
/// 4b). They live beside the store (`FeedTokens`), so `--store` chooses whose.
enum TokenCommand {
    static let command = Command(
        name: "token",
        operands: Operands(usage: "new|list|revoke [NAME]", noun: "new NAME, list, or revoke NAME", minimum: 1, maximum: 2,
                           completion: .words(["new", "list", "revoke"]), after: ["revoke": .tokenNames]),
        summary: "make, list or revoke the tokens phones send with their HTTP feeds",
        options: [.flag("names", "with list: the names alone, one a line, as scripts and completion want them")], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let words = invocation.arguments.positionals
        // The tokens live beside the store: beside a directory, a link or another program's file they would be lost.
        do { try HealthDatabase.checkPath(invocation.storePath) } catch { throw CommandFailure(error.message) }
        let tokens = FeedTokens(forStore: DaemonCommand.absolutePath(invocation.storePath))
        let output = invocation.output
        if invocation.arguments.has("names") {
            guard words == ["list"] else { throw UsageError("--names goes with list") }
            // What completion asks for: nothing but names, and nothing made (no store, no directory, no message).
            for name in ((try? tokens.list()) ?? []).map(\.name).sorted() { output.print(name) }
            return 0
        }
        do {
            switch (words.first, words.count) {
            case ("new", 2):
                try StorePath.preparePrivateDirectory(for: invocation.storePath)
                let name = words[1]
                let token = try tokens.create(name: name)
                // Alone on the first line, so `TOKEN=$(rhr token new phone)` takes it; the words go to stderr.
                output.print(token)
                invocation.report("made the token \(name); its requests feed the stream \(FeedTokens.stream(ofToken: name)). "
                    + "It is shown only now: send it as 'Authorization: Bearer TOKEN' or 'api-key: TOKEN' (docs/phone-feeds.md)")
            case ("list", 1):
                let list = try tokens.list()
                if list.isEmpty { output.print("no tokens yet: rhr token new NAME makes one") }
                let width = list.map(\.name.count).max() ?? 0
                for token in list {
                    // As `rhr status` gives times: local, with the offset.
                    let created = Timestamp(date: token.created, offsetSeconds: 0).at(invocation.machineZone).iso8601
                    output.print(token.name.padding(toLength: width, withPad: " ", startingAt: 0)
                        + "  stream \(token.stream)  made \(created)")
                }
            case ("revoke", 2):
                try tokens.revoke(name: words[1])
                output.print("revoked the token \(words[1]): the daemon refuses it from its next request on")
            case ("new", _), ("revoke", _):
                throw UsageError("\(words[0]) takes one NAME")
            case ("list", _):
                throw UsageError("list takes no NAME")
            default:
                throw UsageError("needs new NAME, list, or revoke NAME")
            }
        } catch let error as DaemonError {
            throw CommandFailure(error.message)
        }
        return 0
    }
}
