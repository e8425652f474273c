import RHRCore
import RHRDaemonClient
import RHRDashboard
import RHRJSON
@testable import RHRLive
import RHRTestSupport
import Testing

/// How each daemon message becomes a dashboard event (the socket itself is in DaemonFeedTests).
@Suite("Daemon feed: messages as dashboard events")
struct DaemonMessageTests {
    /// The line as the daemon's client reads it, then as the dashboard takes it.
    func event(_ line: String) throws -> DashboardEvent? {
        guard let object = try JSONParser.parse(Array(line.utf8)).object else { throw JSONPathError(path: "", "not an object") }
        return DaemonFeed.event(try DaemonEvent(object))
    }

    @Test("changed names its days; resync names none (read everything)")
    func changedAndResync() throws {
        guard case .storeChanged(let revision, let days)? = try event(#"{"event":"changed","revision":7,"days":["2026-03-13","2026-03-14"]}"#) else {
            Issue.record("changed did not become storeChanged")
            return
        }
        #expect(revision == 7 && days == [day("2026-03-13"), day("2026-03-14")])
        guard case .storeChanged(let r, let none)? = try event(#"{"event":"resync","revision":9,"reason":"the store was changed by another process"}"#) else {
            Issue.record("resync did not become storeChanged")
            return
        }
        #expect(r == 9 && none.isEmpty)
    }

    @Test("A folder import the daemon could not read is a note; a good one is left to its changed event")
    func imported() throws {
        guard case .liveFeedNote(let note)? = try event(#"{"event":"imported","file":"/home/jane/Health/export.zip","sha256":"ab12","at":"2026-03-14T09:00:00+00:00","ok":false,"error":"export.zip: not a zip archive","revision":3,"days":[]}"#) else {
            Issue.record("a failed import did not become a note")
            return
        }
        #expect(note == "The daemon's folder watch skipped export.zip: export.zip: not a zip archive")
        #expect(try event(#"{"event":"imported","file":"/x/export.zip","sha256":"cd34","at":"2026-03-14T09:00:00+00:00","ok":true,"added":3,"revision":4,"days":["2026-03-13"]}"#) == nil)
        #expect(try event(#"{"event":"hello"}"#) == nil)
    }
}
