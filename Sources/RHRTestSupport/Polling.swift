import Foundation

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass; true when it held. No
/// outcome is waited for by a fixed sleep: the pause is only between looks.
@discardableResult
public func eventually(timeout: Double = 10, every interval: Double = 0.002, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}
