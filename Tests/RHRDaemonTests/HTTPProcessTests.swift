import Foundation
import RHRCore
import RHRDaemonClient
import RHRStore
import RHRTestSupport
import Testing

/// The real `rhr daemon --http`: SIGTERM with phones and subscribers connected, and a restart after a crash.
@Suite("rhr daemon --http process")
struct HTTPProcessTests {
    /// Starts `rhr daemon --http 127.0.0.1:0` and returns it with the port it took, as its `status` reply says.
    static func start(_ rhr: RHRSandbox) throws -> (RunningProcess, UInt16) {
        let daemon = try rhr.startDaemon(["--http", "127.0.0.1:0"])
        var port: UInt16?
        eventually {
            let status: StatusReply? = try? DaemonClient(socketPath: rhr.socketPath, timeout: 1).request(.status).decode()
            port = status?.http.flatMap { UInt16($0.address.split(separator: ":").last ?? "") }
            return port != nil
        }
        return (daemon, try #require(port, "\(rhr.log())"))
    }

    @Test func sigtermStopsWithoutWaitingOutTheGraceWithPhonesAndSubscribersConnected() throws {
        let rhr = try RHRSandbox()
        let token = try rhr.run(["token", "new", "phone"]).stdout.trimmingCharacters(in: .newlines)
        let (daemon, port) = try HTTPProcessTests.start(rhr)
        // A phone that keeps its connection open after a request, one that sent half a request, and a subscriber
        // that never reads.
        let idle = try HTTPTestClient(port: port)
        #expect(try idle.request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
        let half = try HTTPTestClient(port: port)
        try half.send(Array("POST /v1/health-auto-export HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n".utf8))
        let subscriber = try DaemonClient(socketPath: rhr.socketPath)
        _ = try subscriber.subscribe()
        for i in 0..<20 {
            let day = LocalDay(year: 2026, month: 10, day: 1)!.adding(days: i)
            #expect(try idle.postResting([.init("\(day) 00:00:00 +0100", 55)], token: token).status == 200)
        }
        // Well inside the 15 s grace: nobody connected is owed a reply.
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 5))
        #expect(daemon.termination == .exited(0), "\(rhr.log())")
        #expect(idle.closedByServer(timeout: 2))
    }

    /// Requests acknowledged with 200 survive a `kill -9` of the daemon in the middle of a stream of them.
    @Test func killNineLosesNothingAcknowledgedAndTheFeedGoesOnAfterARestart() throws {
        let rhr = try RHRSandbox()
        let token = try rhr.run(["token", "new", "phone"]).stdout.trimmingCharacters(in: .newlines)
        let (daemon, port) = try HTTPProcessTests.start(rhr)
        let first = LocalDay(year: 2025, month: 1, day: 1)!
        let acknowledged = Recorder<Int>(), posting = DispatchGroup()
        posting.enter()
        Thread {
            defer { posting.leave() }
            guard let client = try? HTTPTestClient(port: port) else { return }
            for i in 0..<10_000 {
                let body = PhonePayloads.healthAutoExportDay(first.adding(days: i), resting: Double(50 + i % 20))
                guard let answer = try? client.post("/v1/health-auto-export", token: token, json: body), answer.status == 200 else { break }
                acknowledged.append(i)
            }
        }.start()
        #expect(eventually(timeout: 30) { acknowledged.all.count >= 15 })
        daemon.kill()
        #expect(posting.wait(timeout: .now() + 20) == .success)
        let acked = acknowledged.all
        #expect(acked.count >= 15)

        let (restarted, newPort) = try HTTPProcessTests.start(rhr)
        defer { restarted.stop() }
        let days = Set(try HealthDatabase(path: rhr.storePath, machineZone: utc).days(aggregation: .latest).map(\.day))
        for i in acked {
            #expect(days.contains(first.adding(days: i)), "acknowledged day \(i) is missing")
        }
        let next = first.adding(days: (acked.last ?? 0) + 1)
        let answer = try HTTPTestClient(port: newPort).post("/v1/health-auto-export", token: token,
                                                            json: PhonePayloads.healthAutoExportDay(next))
        #expect(answer.status == 200)
    }
}
