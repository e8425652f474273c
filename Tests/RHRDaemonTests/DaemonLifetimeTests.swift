import Foundation
import RHRCore
import RHRDaemonClient
import RHRTestSupport
import Testing

/// The daemon outlives the terminal that started it: a log it cannot write, SIGHUP, `--log FILE`, and the
/// files every way out leaves behind.
@Suite("rhr daemon outlives its terminal")
struct DaemonLifetimeTests {
    /// The files a daemon on the sandbox's default socket makes beside it.
    static func socketFiles(_ rhr: RHRSandbox) -> [String] {
        let directory = PathText.parent(rhr.socketPath)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func port(_ rhr: RHRSandbox) -> UInt16? {
        var port: UInt16?
        eventually {
            let status: StatusReply? = try? DaemonClient(socketPath: rhr.socketPath, timeout: 1).request(.status).decode()
            port = status?.http.flatMap { UInt16($0.address.split(separator: ":").last ?? "") }
            return port != nil
        }
        return port
    }

    @Test(arguments: [Subprocess.Stream.pipeWithoutReader, .closed])
    func aDaemonWhoseStderrIsGoneAnswersPhonesAndStopsCleanly(stderr: Subprocess.Stream) throws {
        let rhr = try RHRSandbox()
        let token = try rhr.run(["token", "new", "phone"]).stdout.trimmingCharacters(in: .newlines)
        let daemon = try rhr.startDaemon(["--http", "127.0.0.1:0", "--log", "daemon-file.log"], stderr: stderr)
        let port = try #require(DaemonLifetimeTests.port(rhr))
        for day in 1...3 {
            let body = PhonePayloads.healthAutoExportDay(LocalDay(year: 2026, month: 3, day: day)!)
            let answer = try HTTPTestClient(port: port).post("/v1/health-auto-export", token: token, json: body)
            #expect(answer.status == 200, "\(answer)")
        }
        #expect(daemon.isRunning)
        #expect(DaemonClient.isListening(socketPath: rhr.socketPath))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 10))
        #expect(daemon.termination == .exited(0))
        #expect(DaemonLifetimeTests.socketFiles(rhr) == [])
        let log = rhr.log("daemon-file.log")
        #expect(log.contains("rhr daemon: stopping: finishing 0 requests in flight\n"), "\(log)")
        #expect(log.hasSuffix("rhr daemon: stopped\n"), "\(log)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func ctrlCOrSigtermExitsZeroWithTheStoppingLines(signal: Int32) throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        daemon.signal(signal)
        #expect(daemon.waitForExit(timeout: 10))
        #expect(daemon.termination == .exited(0))
        #expect(rhr.log().hasSuffix("rhr daemon: stopping: finishing 0 requests in flight\nrhr daemon: stopped\n"), "\(rhr.log())")
        #expect(DaemonLifetimeTests.socketFiles(rhr) == [])
    }

    @Test func sighupKeepsItServingAndReopensTheLogFile() throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon(["--log", "rhr.log"])
        defer { daemon.stop() }
        let logPath = rhr.directory.file("rhr.log")
        #expect(FileMode.permissions(logPath) == 0o600)
        #expect(eventually { rhr.log("rhr.log").contains("rhr daemon: listening on \(rhr.socketPath)") })
        // logrotate moves the file away, then sends SIGHUP.
        try FileManager.default.moveItem(atPath: logPath, toPath: logPath + ".1")
        daemon.signal(SIGHUP)
        #expect(eventually { rhr.log("rhr.log").contains("SIGHUP: log file reopened") }, "\(rhr.log())")
        #expect(daemon.isRunning)
        #expect(try DaemonClient(socketPath: rhr.socketPath).request(.hello).isOK)
        #expect(FileMode.permissions(logPath) == 0o600)
        #expect(!rhr.log("rhr.log.1").contains("SIGHUP"))
        // The same lines still go to stderr.
        #expect(eventually { rhr.log().contains("rhr daemon: SIGHUP: log file reopened") })
    }

    @Test func aSecondDaemonRefusedOnTheSameSocketLeavesTheFirstOnesFiles() throws {
        let rhr = try RHRSandbox()
        let first = try rhr.startDaemon()
        let files = DaemonLifetimeTests.socketFiles(rhr)
        #expect(files == ["rhr.sock", "rhr.sock.lock"])
        let second = try rhr.run(["daemon"])
        #expect(second.status == 1)
        #expect(DaemonLifetimeTests.socketFiles(rhr) == files)
        #expect(DaemonClient.isListening(socketPath: rhr.socketPath))
        first.stop()
        #expect(first.termination == .exited(0))
        #expect(DaemonLifetimeTests.socketFiles(rhr) == [])
    }

    @Test func aSecondDaemonRefusedForItsHTTPPortLeavesNoFiles() throws {
        let rhr = try RHRSandbox()
        let first = try rhr.startDaemon(["--http", "127.0.0.1:0"])
        defer { first.stop() }
        let port = try #require(DaemonLifetimeTests.port(rhr))
        let other = rhr.home + "/other/rhr.sock"
        let second = try rhr.run(["daemon", "--socket", other, "--store", rhr.home + "/other.sqlite", "--http", "127.0.0.1:\(port)"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("Address already in use"), "\(second.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: rhr.home + "/other")) ?? []) == [])
        #expect(DaemonLifetimeTests.socketFiles(rhr) == ["rhr.sock", "rhr.sock.lock"])
    }
}
