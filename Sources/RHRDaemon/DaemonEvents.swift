import Foundation

extension DaemonServer {
    func takeInbox() {
        let delivery = inbox.take()
        for message in delivery.messages {
            switch message {
            case .decoded(let id, let decoded):
                busyCount -= 1
                guard let connection = connections[id] else { continue }
                connection.busy = false
                handle(connection, decoded)
                processLines(connection)
            case .answered(let id, let answer):
                busyCount -= 1
                if let connection = connections[id] {
                    connection.busy = false
                    reply(connection, answer.reply)
                }
                notify(answer.notice)
                if let connection = connections[id] { processLines(connection) }
            case .imported(let entry, let notice):
                recentImports.append(entry)
                if recentImports.count > ImportLedger.recentCount { recentImports.removeFirst() }
                log("folder watch: \(entry.summary)")
                broadcast(DaemonMessage.event(.imported(entry)))
                notify(notice)
            case .externalChange(let moved):
                storeChangedElsewhere(moved)
            case .fedOverHTTP(let notice):
                notify(notice)
            }
        }
        if delivery.hungUp { configuration.onHangup?() }
        if delivery.interrupted && !stopping { beginStop() }
    }

    /// What a socket push, a phone's request or a folder import changed, told to the subscribers the one way: a
    /// `resync` when another process had moved the store, then `changed` with the days.
    func notify(_ notice: StoreNotice) {
        if let moved = notice.externalRevision { storeChangedElsewhere(moved) }
        if let change = notice.change { broadcastChange(change) }
    }

    func broadcastChange(_ change: Change) {
        revision = max(revision, change.revision)
        broadcast(DaemonMessage.event(.changed(revision: change.revision, days: change.days)))
    }

    /// The store moved without the daemon: subscribers cannot know which days, so they reload.
    func storeChangedElsewhere(_ moved: Int64) {
        revision = max(revision, moved)
        broadcast(DaemonMessage.event(.resync(revision: moved, dropped: nil, reason: "the store was changed by another process")))
    }

    func broadcast(_ event: [UInt8]) {
        for connection in connections.values where connection.subscribed && !connection.peerGone {
            let revision = self.revision
            let overflowed = connection.output.append(event: event, limit: configuration.subscriberEventLimit,
                                                      byteLimit: configuration.outputByteLimit) { dropped in
                DaemonMessage.event(.resync(revision: revision, dropped: dropped,
                                            reason: "events were dropped because the subscriber read too slowly"))
            }
            if overflowed { log("subscriber \(connection.id) reads too slowly: events dropped, resync queued") }
            flush(connection)
        }
    }
}
