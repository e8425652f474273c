import RHRJSON
import Foundation
import RHRCore
import RHRDaemon
import RHRFormats
import RHRStore
import Testing

/// A private temporary directory with a short path (a socket path holds at most 107 bytes), removed when
/// the value is released.
final class ShortTemporaryDirectory: Sendable {
    let path: String

    init() {
        var template = Array("/tmp/rhrd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var socketPath: String { path + "/run/rhr.sock" }
    var storePath: String { path + "/rhr.sqlite" }
    func file(_ name: String) -> String { path + "/" + name }
}

let utc = TimeZone(identifier: "UTC")!

/// A daemon served from a thread of the test process, on a real socket in a temporary directory.
final class TestDaemon: Sendable {
    let directory: ShortTemporaryDirectory
    let server: DaemonServer
    let logLines = LockedList<String>()

    init(directory: ShortTemporaryDirectory = ShortTemporaryDirectory(), adjust: (inout DaemonConfiguration) -> Void = { _ in }) throws {
        self.directory = directory
        var configuration = DaemonConfiguration(socketPath: directory.socketPath, storePath: directory.storePath)
        configuration.machineZone = utc
        configuration.shutdownGrace = 5
        let lines = logLines
        configuration.log = { lines.append($0) }
        adjust(&configuration)
        server = try DaemonServer(configuration)
        server.start()
    }

    var socketPath: String { directory.socketPath }

    func client() throws -> DaemonClient { try DaemonClient(socketPath: socketPath, timeout: 5) }

    /// Stops the daemon and waits for it.
    func stop() {
        server.stop()
        #expect(server.waitUntilStopped(timeout: 10), "the daemon did not stop")
    }

    deinit {
        server.stop()
        server.waitUntilStopped(timeout: 10)
    }
}

/// A list several threads append to. `@unchecked Sendable`: `items` is used under `lock` only.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass; never a fixed sleep.
@discardableResult
func eventually(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

// MARK: - Batches

let watchWriter = Writer(store: .healthKit, name: "Jane’s Apple Watch", bundleIdentifier: "com.apple.health.7A1B",
                         productType: "Watch7,1")

func timestamp(_ text: String) -> Timestamp {
    guard let t = Timestamp.parse(text) else { fatalError("bad test date \(text)") }
    return t
}

/// One HealthKit resting sample spanning most of `day` (UTC+1), as a watch writes it. HealthKit samples are
/// told apart by writer, start and end (not by UUID): `second` moves the start to make another sample.
func restingSample(day: String, value: Double, uuid: String, writer: Writer = watchWriter, second: Int = 0) -> RestingSample {
    let start = timestamp("\(day)T00:03:12+01:00"), end = timestamp("\(day)T23:48:44+01:00")
    return RestingSample(store: .healthKit, uuid: uuid, writer: writer, start: start.date.addingTimeInterval(Double(second)),
                         end: end.date, offsetSeconds: 3600, value: value)
}

/// A live-feed batch of one stream moving its cursor from `previous` to `next`.
func liveBatch(stream: String = "iphone", previous: String?, next: String?, samples: [RestingSample] = [],
               deleted: [String] = [], asOf: String = "2026-11-29T08:00:00+01:00", fullResync: Bool = false) -> SyncBatch {
    SyncBatch(store: .healthKit, stream: stream, asOf: timestamp(asOf),
              cursor: previous == nil && next == nil ? nil : SyncBatch.Cursor(previous: previous, next: next),
              fullResync: fullResync, resting: samples, deleted: deleted)
}

/// The n-th batch of a chain: cursor "c<n-1>" → "c<n>", one new sample on a day of November. Each stream
/// but "iphone" has a writer of its own, so chains of different streams never deliver the same sample.
func chainBatch(stream: String, _ n: Int, value: Double = 58) -> SyncBatch {
    let day = String(format: "2026-11-%02d", 1 + n % 28)
    let writer = stream == "iphone" ? watchWriter : Writer(store: .healthKit, name: "writer of \(stream)")
    return liveBatch(stream: stream, previous: n == 1 ? nil : "c\(n - 1)", next: "c\(n)",
                     samples: [restingSample(day: day, value: value, uuid: "\(stream)-\(n)", writer: writer, second: n / 28)])
}

/// A batch as one JSON line, for files and raw sends.
func batchLine(_ batch: SyncBatch) -> String { JSONWriter.string(SyncBatchJSON.encode(batch)) }

extension DaemonReply {
    var errorCode: String? { error?.code.rawValue }
    var errorMessage: String { error?.message ?? "" }
    /// The `days` member as sent.
    var days: [String] { self["days"]?.array?.compactMap(\.string) ?? [] }
}

extension DaemonEvent {
    /// The days a `changed` or `imported` event names.
    var days: [String] {
        switch self {
        case .changed(_, let days): return days.map(\.description)
        case .imported(let entry): return entry.days.map(\.description)
        case .resync, .other: return []
        }
    }

    /// The entry of an `imported` event.
    var imported: WatchImport? {
        if case .imported(let entry) = self { return entry }
        return nil
    }
}

// MARK: - The real binary

/// Runs the `rhr` binary `swift build` made, with a private home and data directory and a fixed zone.
struct RHRBinary {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let path = packageRoot + "/.build/debug/rhr"

    let directory: ShortTemporaryDirectory

    var environment: [String: String] {
        ["HOME": directory.path, "XDG_DATA_HOME": directory.path + "/data", "XDG_RUNTIME_DIR": directory.path,
         "TZ": "UTC", "LANG": "C.UTF-8", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    var storePath: String { directory.path + "/data/rhr/rhr.sqlite" }
    /// The default socket under this `XDG_RUNTIME_DIR`.
    var socketPath: String { directory.path + "/rhr/rhr.sock" }

    /// Starts `rhr ARGS` with stderr going to a file; returns the running process.
    func start(_ arguments: [String], log name: String = "daemon.log") throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RHRBinary.path)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        let logPath = directory.file(name)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts `rhr daemon ARGS` and waits until it answers on its socket.
    func startDaemon(_ arguments: [String] = []) throws -> Process {
        let process = try start(["daemon"] + arguments)
        let answering = eventually { DaemonClient.isListening(socketPath: socketPath) || !process.isRunning }
        #expect(answering && process.isRunning, "the daemon did not start: \(log())")
        return process
    }

    func log(_ name: String = "daemon.log") -> String {
        (try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? ""
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `rhr ARGS` to the end.
    func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RHRBinary.path)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        // Written by the reader before `group.leave()`, read after `group.wait()`: ordered.
        nonisolated(unsafe) var outData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs another program to the end; returns its exit status.
    func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends a process the test started if it is still running (a failed test must not leave a daemon).
    static func reap(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = waitForExit(process)
    }

    /// Stops a daemon process politely, then for sure.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if !waitForExit(process, timeout: 10) { reap(process) }
    }

    /// Waits for a process to end, with a deadline.
    static func waitForExit(_ process: Process, timeout: Double = 15) -> Bool {
        eventually(timeout: timeout) { !process.isRunning }
    }
}

/// Reads the store directly (a second connection, as `rhr export` would).
func storeDays(_ path: String) throws -> [DayValue] {
    try HealthDatabase(path: path, machineZone: utc).days(aggregation: .latest)
}
