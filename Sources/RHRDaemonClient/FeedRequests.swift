import Foundation
import RHRCore
import RHRJSON

/// A refused HTTP request (or connection): when, its status (0 for a connection closed without an answer) and why.
public struct FeedRefusal: Sendable, Equatable {
    public var at: Date
    public var status: Int
    public var reason: String

    public init(at: Date, status: Int, reason: String) {
        self.at = at
        self.status = status
        self.reason = reason
    }
}

/// One phone feed's answers since the daemon started: so a user whose app says "success" can see which side failed.
/// `token` nil counts what came with no known token (and connections refused before a request).
public struct FeedRequests: Sendable, Equatable {
    public var token: String?
    public var accepted = 0
    public var refused = 0
    public var lastRefusal: FeedRefusal?

    public init(token: String?) { self.token = token }

    package var json: JSONValue {
        ["token": token.map { .string($0) } ?? .null, "accepted": .number(JSONNumber(accepted)),
         "refused": .number(JSONNumber(refused)),
         "lastRefusal": lastRefusal.map { refusal in
             ["at": .string(Timestamp(date: refusal.at, offsetSeconds: 0).iso8601), "status": .number(JSONNumber(refusal.status)),
              "reason": .string(refusal.reason)] } ?? .null]
    }

    package init(members: JSONMembers) throws(JSONPathError) {
        token = try members.stringOrNull("token")
        accepted = Int(try members.integer("accepted") ?? 0)
        refused = Int(try members.integer("refused") ?? 0)
        lastRefusal = try members.members("lastRefusal").map { refusal throws(JSONPathError) in
            FeedRefusal(at: try refusal.requiredDecode("at", "a time") { $0.string.flatMap(Timestamp.parse)?.date },
                        status: Int(try refusal.integer("status") ?? 0), reason: try refusal.requiredString("reason"))
        }
    }
}
