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
                            let applied = try database.apply(group, noting: tracker)
                            if !applied.notice.isEmpty { inbox.post(.fedOverHTTP(applied.notice)) }
                            return applied.outcomes
                        }
                    }
                }
            },
            deliveries: { stream in
                worker.perform { database in Result { () throws(StoreError) in try database.deliveries(stream: stream) } }
            },
            keepPassedOver: { batches in
                worker.perform { database in Result { () throws(StoreError) in try database.keepPassedOver(only: batches) } }
            })
    }
}
