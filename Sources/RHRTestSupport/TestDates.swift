import Foundation
import RHRCore

/// The zone tests place days in, whatever the machine's.
public let utc = TimeZone(identifier: "UTC")!

/// A timestamp from an ISO-8601 or Apple date literal; stops loudly when the literal is wrong (a bug in the test).
public func ts(_ text: String) -> Timestamp {
    guard let t = Timestamp.parse(text) else { preconditionFailure("bad test date \(text)") }
    return t
}

/// The instant a date literal names.
public func date(_ text: String) -> Date { ts(text).date }

/// A day from `YYYY-MM-DD`; stops loudly when the literal is wrong.
public func day(_ text: String) -> LocalDay {
    guard let d = LocalDay(text) else { preconditionFailure("bad test day \(text)") }
    return d
}
