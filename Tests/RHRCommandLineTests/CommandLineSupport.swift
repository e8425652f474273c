import Foundation
import Testing

/// Runs the real `rhr` binary that `swift build` made, with a private data directory and a fixed zone.
struct RHRProcess {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binary = packageRoot + "/.build/debug/rhr"
    static let samples = packageRoot + "/Samples"

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let home: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/rhr-cli-XXXXXX").utf8CString)
        home = String(cString: mkdtemp(&template)!)
    }

    var dataHome: String { home + "/data" }
    var storePath: String { dataHome + "/rhr/rhr.sqlite" }

    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RHRProcess.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: home)
        var environment = ["HOME": home, "XDG_DATA_HOME": dataHome, "TZ": "UTC", "LANG": "C.UTF-8",
                           "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child. `outData` crosses
        // threads once, safely: the background read writes it before `leave()`, this thread reads it after `wait()`.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// An import that sets a test up: it must succeed, or what the test checks next would say nothing.
    func imported(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }

    func write(_ name: String, _ text: String) -> String {
        let path = home + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { fatalError("cannot write \(path)") }
        return path
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: home) }
}
