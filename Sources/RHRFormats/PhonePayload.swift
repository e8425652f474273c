import Foundation
import RHRCore

/// What a phone app's payload holds, read and not yet a batch: its points (resting samples, heart-rate day counts),
/// its writers' spellings (R2), what was passed over (R14) and the times it gives of itself. The Health Auto Export
/// and HC Webhook readers return one, from a file or a request's body alike; what it becomes in the store is decided
/// in one place, `imported(on:)`, by the road it came by (docs/design.md sections 2 and 4b).
public struct PhonePayload: Sendable {
    enum App: Sendable { case healthAutoExport, hcWebhook }
    /// The app that wrote it, by what it was read as.
    var app: App { kind == .hcWebhookJSON ? .hcWebhook : .healthAutoExport }
    /// The path, or what stands for it in errors (a request's endpoint).
    var label: String
    var kind: InputKind
    var machineZone: TimeZone
    var resting: [RestingSample] = []
    var heartRate: [HeartRateDaySummary] = []
    var passedOver = PassedOverLog()
    var writerSpellings: [String: [String]] = [:]
    var recordsRead = 0
    var skipped: [String: Int] = [:]
    /// Health Auto Export: the period its windows cover, from the first one's start to the last one's end, and the
    /// end of the newest window in its written offset; which metrics it carries.
    var period: HealthAutoExportContents.Period?
    var coversResting = false
    var coversHeartRate = false
    /// HC Webhook: when the payload was received, as its reader was told (R13's horizon); when the app built it
    /// (`timestamp`); its newest plausible record.
    var receivedAt: Timestamp?
    var sentAt: Timestamp?
    var newestRecord: Date?
    /// HC Webhook: R13's horizon it was read against (a record dated past it moves no "as of").
    var horizon: Timestamp?

    init(label: String, kind: InputKind, machineZone: TimeZone) {
        self.label = label
        self.kind = kind
        self.machineZone = machineZone
    }
}

/// The road a phone payload came by.
public enum PayloadRoad: Sendable {
    /// A file (`rhr import`, the folder watch, a body read as a file) into `stream`. `readAt` dates a Health Auto
    /// Export file without any point (its modification time) and an HC Webhook payload that gives no time.
    case file(stream: String, readAt: Date)
    /// A request over HTTP into the token's stream's one road, which knows each day as of the last request that
    /// carried it (R12, `SyncBatch.DayFeed`), read (`asOf`) when the daemon received it. A phone posting every 15
    /// minutes thus keeps one road: a request that says what the road holds already changes nothing and stores nothing
    /// new, and one that carries only some days (or only heart rate) makes no other day fresher than another road's
    /// word about it.
    case phoneFeed(stream: String, receivedAt: Timestamp)
}

extension PhonePayload {
    /// The batch a payload is on its road, the one place that decides it:
    ///
    /// - A Health Auto Export file is a snapshot (R4, R12) of the metrics it carries for the period its points cover,
    ///   as of the end of its newest window (so R3 keeps an Apple Watch's last two days provisional); without any point
    ///   it is as of `readAt` and covers nothing, so it replaces nothing, and the store still remembers it.
    /// - A Health Auto Export request replaces what the stream said about the same writers' local days (a value Apple
    ///   replaced is gone, R4), and its heart rate the counts of the writers' days it carries. Days it does not carry a
    ///   metric for, and other writers' days, keep what they had, so a request without the late resting estimate
    ///   removes nothing. Its `asOf` is the time of receipt in the phone's offset, as its points were written (R3).
    /// - HC Webhook sends records, not periods: each one is added or updated by its identity (writer, type, time), and
    ///   nothing is removed. A file is as of the time it was received if known, else the app's `timestamp`, else its
    ///   newest record; a file of records passed over only is as of `readAt`, so the store keeps them (R14); one with
    ///   nothing at all is no batch.
    public func imported(on road: PayloadRoad) throws(InputError) -> ImportedFile {
        var batches: [SyncBatch] = []
        switch (app, road) {
        case (.healthAutoExport, .file(let stream, let readAt)):
            let asOf = period?.newestEnd
                ?? Timestamp(date: readAt, offsetSeconds: machineZone.secondsFromGMT(for: readAt))
            batches.append(SyncBatch(
                store: .healthKit, stream: stream, asOf: asOf,
                snapshot: .init(from: period.map { Timestamp(date: $0.from, offsetSeconds: asOf.offsetSeconds) },
                                to: period.map { Timestamp(date: $0.to, offsetSeconds: asOf.offsetSeconds) },
                                coversResting: coversResting, coversHeartRate: coversHeartRate),
                resting: resting, heartRate: heartRate, origin: FeedFreshness.healthAutoExportOrigin,
                passedOver: passedOver, writerSpellings: writerSpellings))
        case (.healthAutoExport, .phoneFeed(let stream, let received)):
            // The phone's offset, as its points were written, places the days of R3.
            let offset = resting.last?.offsetSeconds ?? period?.newestEnd.offsetSeconds ?? received.offsetSeconds
            batches.append(SyncBatch(
                store: .healthKit, stream: stream, asOf: Timestamp(date: received.date, offsetSeconds: offset),
                resting: resting, heartRate: heartRate, origin: "\(FeedFreshness.healthAutoExportOrigin) over HTTP",
                dayFeed: .replacesDays, passedOver: passedOver, writerSpellings: writerSpellings))
        case (.hcWebhook, .file(let stream, let readAt)):
            let readNow = passedOver.isEmpty ? nil : Timestamp(date: readAt, offsetSeconds: machineZone.secondsFromGMT())
            if let asOf = receivedAt ?? sentAt ?? newestRecord.map({ Timestamp(date: $0, offsetSeconds: 0) })
                ?? (resting.isEmpty ? nil : horizon) ?? readNow {
                batches.append(SyncBatch(
                    store: .healthConnect, stream: stream, asOf: asOf, resting: resting, heartRate: heartRate,
                    origin: "\(FeedFreshness.hcWebhookOrigin) of \(asOf.localDay.shortText)", passedOver: passedOver,
                    writerSpellings: writerSpellings))
            }
        case (.hcWebhook, .phoneFeed(let stream, let received)):
            batches.append(SyncBatch(
                store: .healthConnect, stream: stream, asOf: receivedAt ?? received, resting: resting,
                heartRate: heartRate, origin: "\(FeedFreshness.hcWebhookOrigin) over HTTP", dayFeed: .addsRecords,
                passedOver: passedOver, writerSpellings: writerSpellings))
        }
        for batch in batches {
            do {
                try batch.validate()
            } catch {
                let what = app == .healthAutoExport ? "the file" : "the payload"
                throw InputError(path: label, place: InputPlace(path: ""),
                                 message: "\(what) reads as an invalid batch: \(error.description)")
            }
        }
        return ImportedFile(path: label, kind: kind, batches: batches, recordsRead: recordsRead, skipped: skipped)
    }
}
