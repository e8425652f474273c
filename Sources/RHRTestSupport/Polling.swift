import Foundation

/// Polls `condition` until it holds or `timeout` seconds pass; true when it held. The pause between looks is
/// short and no outcome is waited for by a fixed sleep.
@discardableResult
public func eventually(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(2_000)
    }
    return try condition()
}
