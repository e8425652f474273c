/// R13: no delivery can date a road into the future. A delivery's own time (an Apple export's `ExportDate`, a Health
/// Connect zip member's time, a batch's `asOf`, a file's modification time) more than `PlausibleTimeRule.maxAhead`
/// after the machine's clock when it arrives cannot be right (a phone whose clock was wrong): the delivery is dated by
/// when it was read instead, and says so. Its values past the day after are then implausible by R13's own measure,
/// kept and flagged, so they never set a chart's range, and a later genuine export is fresher than it (R12).

/// What the rule did to one delivery: the time it claimed, and the one it was given.
public struct FutureDelivery: Sendable, Hashable {
    /// Which of its times could not be right.
    public enum Claim: String, Sendable, Hashable {
        /// Its `asOf`: what the road is read as of (R3, R12).
        case asOf
        /// When its file was made (`DeliveredFile.madeAt`): what orders files of one instant (R12). Not used then: the
        /// file counts as made before any whose time is (a time of receipt would differ each time the file came).
        case madeAt
    }

    public var claim: Claim
    /// "export", "batch", "request" or "file": what the person sent, in the words of the import line.
    public var what: String
    public var claimed: Timestamp
    /// When it was read: the machine's clock when the store received it.
    public var readAt: Timestamp

    public init(claim: Claim, what: String, claimed: Timestamp, readAt: Timestamp) {
        self.claim = claim
        self.what = what
        self.claimed = claimed
        self.readAt = readAt
    }

    /// "export dated 1 Jan 2099, later than this machine's clock: dated by when it was read (5 Dec 20:34 +00:00)";
    /// "file dated 1 Jan 2099, later than this machine's clock: its time is not used".
    public var words: String {
        let thisYear = readAt.localDay.year
        let dated = "\(what) dated \(claimed.localDay.text(thisYear: thisYear)), later than this machine's clock: "
        switch claim {
        case .asOf: return dated + "dated by when it was read (\(readAt.text(thisYear: thisYear)))"
        case .madeAt: return dated + "its time is not used"
        }
    }
}

public enum FutureDeliveryRule {
    /// Whether a delivery's own time `claimed` can be right when it arrives at `now`.
    public static func isBelievable(_ claimed: Timestamp, now: Timestamp) -> Bool {
        claimed.epochSeconds <= now.epochSeconds + PlausibleTimeRule.maxAhead
    }
}

extension SyncBatch {
    /// The batch as the store takes it when it arrives at `now` (the machine's clock, in its zone; for the same export
    /// again, when it was first read): an `asOf` that cannot be right is replaced by `now`, and the period a snapshot
    /// speaks for ends there too; a file's time that cannot be right is not used. Nothing else changes. The notes say
    /// what was replaced, for the import line and the replies.
    public func datedByReceipt(now: Timestamp) -> (batch: SyncBatch, notes: [FutureDelivery]) {
        var batch = self, notes: [FutureDelivery] = []
        if !FutureDeliveryRule.isBelievable(asOf, now: now) {
            notes.append(FutureDelivery(claim: .asOf, what: deliveryWord, claimed: asOf, readAt: now))
            batch.asOf = now
            if let to = snapshot?.to, to > now { batch.snapshot?.to = now }
        }
        if let made = file?.madeAt, !FutureDeliveryRule.isBelievable(made, now: now) {
            notes.append(FutureDelivery(claim: .madeAt, what: "file", claimed: made, readAt: now))
            batch.file?.madeAt = nil
        }
        return (batch, notes)
    }

    /// What the person sent, as the import line and the replies name it.
    var deliveryWord: String { snapshot != nil ? "export" : dayFeed != nil ? "request" : "batch" }
}
