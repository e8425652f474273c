import RHRCore
import RHRStore

extension DaemonServer {
    /// The HTTP feeds' way to the store: the store thread, and the event loop's inbox for subscribers.
    static func feedStore(worker: StoreWorker, tracker: RevisionTracker, inbox: Inbox) -> FeedStore {
        FeedStore(
            apply: { groups in
                worker.perform { database in
                    groups.map { group in
                        Result { () throws(StoreError) in
                            let outcomes = try database.apply(group)
                            let noted = tracker.noteApplied(outcomes)
                            if noted.change != nil || noted.external != nil {
                                inbox.post(.fedOverHTTP(noted.change, externalRevision: noted.external))
                            }
                            return outcomes
                        }
                    }
                }
            },
            deliveries: { stream in
                worker.perform { database in Result { () throws(StoreError) in try database.deliveries(stream: stream) } }
            })
    }
}

/// A change subscribers hear of: the store's revision after it and the days whose values changed.
struct Change: Sendable {
    var revision: Int64
    var days: [LocalDay]
}
