import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRSystem
import Synchronization

/// One token as `rhr token list` shows it: the token itself is never kept.
public struct FeedToken: Sendable, Equatable {
    public var name: String
    public var created: Date

    /// The stream its requests feed: each phone its own cursor, currency and freshness.
    public var stream: String { FeedTokens.stream(ofToken: name) }
}

/// The tokens phones present to the daemon's HTTP feeds (docs/design.md section 4b): `rhr token new NAME` makes
/// one, prints it once, and keeps only a salted SHA-256 of it.
///
/// They live in a file beside the store (`rhr.sqlite-tokens`, mode 0600, one JSON line per token), not in the
/// store, because the daemon checks a token on the HTTP thread before it reads a byte of the body: it must not
/// wait behind an import on the store's one thread, and a file it looks at with one `stat` per request shows a
/// new or revoked token at the next request, without a restart. Writers (`rhr token new`, `revoke`) take a
/// lock beside it and replace the file whole (rename), so a reader never sees half of it.
public final class FeedTokens: Sendable {
    public let path: String
    /// Where the daemon says that the file cannot be read (once per change of the file).
    private let log: (@Sendable (String) -> Void)?

    private struct Entry: Sendable {
        var name: String
        var salt: [UInt8]
        /// SHA-256 of salt + token: 32 bytes (64 hex digits in the file).
        var digest: [UInt8]
        var created: Date
    }

    /// What a reading of the file found, and the file's identity then (so a change is seen with one `stat`).
    private struct Loaded: Sendable {
        var stamp: [Int64] = []
        var entries: [Entry] = []
        /// Why the file could not be read; then no token is honoured, and the phone is told so.
        var failure: DaemonError?
    }
    private let loaded = Mutex(Loaded())

    public static func path(forStore storePath: String) -> String { storePath + "-tokens" }

    /// `http-NAME`.
    public static func stream(ofToken name: String) -> String { FeedFreshness.httpStreamPrefix + name }

    /// At most 40 letters, digits, `.`, `_` and `-`, starting with a letter or digit: a name that reads well as a
    /// stream (`http-phone`) and in a shell.
    public static func checkName(_ name: String) throws(DaemonError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard let first = name.first, first.isLetter || first.isNumber, name.count <= 40, name.allSatisfy(allowed.contains) else {
            throw DaemonError("\"\(name)\" cannot name a token: use up to 40 letters, digits, '.', '_' or '-', starting with a letter or digit")
        }
    }

    public init(path: String, log: (@Sendable (String) -> Void)? = nil) {
        self.path = path
        self.log = log
    }

    /// The tokens of the store at `storePath`, beside it.
    public convenience init(forStore storePath: String, log: (@Sendable (String) -> Void)? = nil) {
        self.init(path: FeedTokens.path(forStore: storePath), log: log)
    }

    // MARK: - Managing (rhr token)

    /// Makes a token for `name` and returns it: `rhr_` and 43 characters of base64url, 256 random bits.
    public func create(name: String, now: Date = Date()) throws(DaemonError) -> String {
        try FeedTokens.checkName(name)
        var random = SystemRandomNumberGenerator()
        let token = "rhr_" + FeedTokens.base64url((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        try update { entries throws(DaemonError) in
            if entries.contains(where: { $0.name == name }) {
                throw DaemonError("a token named \(name) exists already; revoke it first (rhr token revoke \(name))")
            }
            entries.append(Entry(name: name, salt: salt, digest: FeedTokens.digest(salt: salt, token: token), created: now))
        }
        return token
    }

    /// Removes the token `name`; the daemon refuses it from the next request on.
    public func revoke(name: String) throws(DaemonError) {
        try update { entries throws(DaemonError) in
            guard let i = entries.firstIndex(where: { $0.name == name }) else {
                throw DaemonError("no token named \(name)" + (entries.isEmpty ? "" : "; there are: "
                    + entries.map(\.name).joined(separator: ", ")))
            }
            entries.remove(at: i)
        }
    }

    /// The tokens, oldest first.
    public func list() throws(DaemonError) -> [FeedToken] {
        try read().map { FeedToken(name: $0.name, created: $0.created) }
    }

    // MARK: - Checking (the daemon)

    /// What the file says of a presented token.
    public enum Check: Sendable, Equatable {
        /// The token of this name.
        case known(String)
        /// No token of the file.
        case unknown
        /// The file cannot be read (its error went to the log): no token is honoured until it reads again.
        case unreadable
    }

    /// Which token `presented` is. Every token's digest is compared in full, in time that does not depend on where
    /// digests differ; the file is read again when it changed since the last look.
    public func check(_ presented: String) -> Check {
        let loaded = current()
        if loaded.failure != nil { return .unreadable }
        let token = Array(presented.utf8)
        var found: String?
        for entry in loaded.entries {
            let digest = FeedTokens.digest(salt: entry.salt, token: token)
            var difference: UInt8 = 0
            for (a, b) in zip(digest, entry.digest) { difference |= a ^ b }
            if difference == 0 && digest.count == entry.digest.count && found == nil { found = entry.name }
        }
        return found.map(Check.known) ?? .unknown
    }

    /// Whether the file holds no token (the daemon says so when it starts without one); a file that cannot be read
    /// is not empty: its error is logged instead.
    public var isEmpty: Bool {
        let loaded = current()
        return loaded.failure == nil && loaded.entries.isEmpty
    }

    private func current() -> Loaded {
        let stamp = FeedTokens.stamp(path)
        let (current, fresh) = loaded.withLock { loaded in
            guard loaded.stamp != stamp else { return (loaded, false) }
            do throws(DaemonError) {
                loaded = Loaded(stamp: stamp, entries: try read())
            } catch {
                loaded = Loaded(stamp: stamp, failure: error)
            }
            return (loaded, true)
        }
        // Said once per change of the file, outside the lock.
        if fresh, let failure = current.failure {
            log?("\(failure.message); every phone is refused until the file reads again")
        }
        return current
    }

    // MARK: - The file

    private static func stamp(_ path: String) -> [Int64] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
    }

    private func read() throws(DaemonError) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw DaemonError("\(path): cannot be read") }
            return []
        }
        var entries: [Entry] = []
        // Empty lines are kept in the count, so a line number is the one an editor shows.
        for (number, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                let members = try JSONMembers(try JSONParser.parse(Array(line)), path: "")
                let created = try members.requiredDecode("created", "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) }
                // Damaged hex is a bad line: read leniently, it would be a token that never matches, and nobody told.
                let salt = try members.requiredDecode("salt", "hex digits") { $0.string.flatMap { FeedTokens.bytes(hex: $0) } }
                let digest = try members.requiredDecode("sha256", "64 hex digits") { value -> [UInt8]? in
                    value.string.flatMap { FeedTokens.bytes(hex: $0) }.flatMap { $0.count == 32 ? $0 : nil }
                }
                entries.append(Entry(name: try members.requiredString("name"), salt: salt, digest: digest, created: created.date))
            } catch {
                throw DaemonError("\(path):\(number + 1): not a token line: \(error)")
            }
        }
        return entries
    }

    /// Reads, changes and writes the file under a lock beside it (never replaced, unlike the file).
    private func update(_ change: (inout [Entry]) throws(DaemonError) -> Void) throws(DaemonError) {
        let lock: Int32
        do {
            lock = try PrivateFiles.openLock(path + ".lock")
        } catch {
            if [EACCES, EPERM, EROFS].contains(error.code) {
                throw DaemonError("\(path): the tokens cannot be changed: "
                    + "\(AccessWording.mayNotBeWritten(PathText.parent(path))), and they are kept beside the store")
            }
            throw DaemonError("\(path).lock: cannot be opened: \(error.reason)")
        }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw DaemonError("\(path).lock: cannot be locked: \(errnoText())") }
        var entries = try read()
        try change(&entries)
        var text = ""
        for entry in entries {
            let line: JSONObject = ["name": .string(entry.name), "salt": .string(FeedTokens.hex(entry.salt)),
                                    "sha256": .string(FeedTokens.hex(entry.digest)),
                                    "created": .string(Timestamp(date: entry.created, offsetSeconds: 0).iso8601)]
            text += JSONWriter.string(.object(line)) + "\n"
        }
        do {
            try PrivateFiles.replace(path, with: Array(text.utf8), temporary: path + ".new")
        } catch {
            throw DaemonError("\(error.path): cannot be written: \(error.reason)")
        }
    }

    // MARK: - Bytes

    private static func digest(salt: [UInt8], token: String) -> [UInt8] { digest(salt: salt, token: Array(token.utf8)) }

    private static func digest(salt: [UInt8], token: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update(token)
        return bytes(hex: hasher.finish()) ?? []
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lower-case hex, as `hex(_:)` writes it, to bytes; nil for anything else (another character, an odd count,
    /// nothing at all).
    static func bytes(hex: String) -> [UInt8]? {
        var digits: [UInt8] = []
        for c in hex.utf8 {
            switch c {
            case 0x30...0x39: digits.append(c - 0x30)
            case 0x61...0x66: digits.append(c - 0x61 + 10)
            default: return nil
            }
        }
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// RFC 4648 base64url without padding: safe in a header and a URL, easy to paste.
    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
