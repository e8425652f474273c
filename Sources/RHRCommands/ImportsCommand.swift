import Foundation
import RHRCore
import RHRStore
import RHRSystem

/// `rhr imports` lists every delivery the store remembers; `rhr imports forget ID...` takes deliveries back, as if
/// they had never come (docs/design.md section 5, R12): what they alone brought leaves, what they replaced comes
/// back, the history says where their values went, and the command says which days' values changed.
enum ImportsCommand {
    static let command = Command(
        name: "imports",
        operands: Operands(usage: "[forget ID...]", noun: "forget and the ID of an import", minimum: 0,
                           completion: .words(["forget"])),
        summary: "list the imports the store remembers, or forget one as if it had never come",
        options: [.flag("force", "with forget: also a live feed's cursor history, or an import made before rhr kept "
                    + "what each replaced")],
        run: run)

    /// At most this many changed days are listed; the rest are counted.
    static let shownChanges = 40

    static func run(_ invocation: Invocation) throws -> Int32 {
        let words = invocation.arguments.positionals
        let force = invocation.arguments.has("force")
        switch words.first {
        case nil:
            if force { throw UsageError("--force goes with forget ID") }
            let store = try openStoreForReading(invocation)
            let today = MachineClock.today(in: invocation.machineZone)
            do {
                invocation.output.write(list(try store.deliveries(), zone: invocation.machineZone, thisYear: today.year))
            } catch {
                throw CommandFailure(error.message)
            }
            return 0
        case "forget":
            let ids = try words.dropFirst().map(id)
            if ids.isEmpty { throw UsageError("forget needs the ID of an import (rhr imports lists them)") }
            return try forget(ids, force: force, invocation)
        case let word?:
            throw UsageError("'\(word)' is not what imports takes: rhr imports lists the imports, "
                + "rhr imports forget ID forgets one")
        }
    }

    static func id(_ word: String) throws(UsageError) -> Int64 {
        guard let id = Int64(word), id > 0 else { throw UsageError("'\(word)' is no import ID: a number rhr imports lists") }
        return id
    }

    // MARK: - The list

    /// A delivery a block: its id, the file or feed and when it came, then a line per road with what it did there.
    static func list(_ deliveries: [DeliveryRecord], zone: TimeZone, thisYear: Int) -> String {
        guard !deliveries.isEmpty else { return "no imports yet: rhr import FILE imports one\n" }
        var lines: [String] = []
        let width = String(deliveries.map(\.id).max() ?? 0).count
        for delivery in deliveries {
            let id = String(delivery.id)
            lines.append(String(repeating: " ", count: width - id.count) + id + "  " + heading(delivery, zone: zone, thisYear: thisYear))
            for road in delivery.roads {
                lines.append(String(repeating: " ", count: width + 4) + roadLine(road, zone: zone, thisYear: thisYear))
            }
        }
        lines.append("rhr imports forget ID takes one back: what it brought leaves, what it replaced comes back")
        return lines.joined(separator: "\n") + "\n"
    }

    /// "export.xml  imported 30 Mar 10:00 +00:00"; "feed healthkit/iphone: 212 batches from the socket, last 30 Mar
    /// …; cursor c2"; "imported before rhr kept a list of imports".
    static func heading(_ d: DeliveryRecord, zone: TimeZone, thisYear: Int) -> String {
        guard d.known else { return (d.isFeed ? "feed " + roadNames(d) + ": " : "") + "imported before rhr kept a list of imports" }
        let first = d.firstReceived.map { $0.at(zone).text(thisYear: thisYear) } ?? "?"
        guard d.isFeed else { return "\(d.label)  imported \(first)" }
        let batches = d.roads.compactMap(\.batches).reduce(0, +)
        let sources = ([d.label] + d.sources).map { $0 == "socket" ? "the socket" : $0 }
        var line = "feed \(roadNames(d)): \(Wording.count(batches, "batch", plural: "batches")) from "
            + sources.joined(separator: ", ") + ", first \(first)"
        if let last = d.lastReceived, last != d.firstReceived { line += ", last \(last.at(zone).text(thisYear: thisYear))" }
        if let cursor = d.roads.compactMap(\.cursor).first { line += "; cursor \(TextGate.clipped(cursor))" }
        return line
    }

    static func roadNames(_ d: DeliveryRecord) -> String {
        d.roads.map { "\($0.store.rawValue)/\($0.stream)" }.joined(separator: ", ")
    }

    /// "HealthKit apple-health-export: Apple Health export as of 6 Mar 21:00 +00:00; resting samples 6 added, …;
    /// 6 heart-rate summaries; 2 passed over; shared with import 4".
    static func roadLine(_ road: DeliveredRoad, zone: TimeZone, thisYear: Int) -> String {
        var parts = ["\(road.store.displayName) \(road.stream): "
            + (road.origin.isEmpty || road.origin == road.stream ? "" : road.origin + " ")
            + AsOfWording.phrase(road.asOf.at(zone), thisYear: thisYear)]
        if let counts = road.counts {
            parts.append("resting samples " + counts.words)
            if let n = road.heartRateSummaries, n > 0 { parts.append(Wording.count(n, "heart-rate summary", plural: "heart-rate summaries")) }
            if let n = road.passedOver, n > 0 { parts.append("\(Wording.grouped(n)) passed over") }
        } else {
            parts.append("what it brought was not counted")
        }
        if !road.sharedWith.isEmpty {
            parts.append("one road with import" + (road.sharedWith.count == 1 ? " " : "s ")
                + road.sharedWith.map(String.init).joined(separator: ", ") + " (the same file again, or one of the same instant)")
        }
        return parts.joined(separator: "; ")
    }

    // MARK: - Forgetting

    static func forget(_ ids: [Int64], force: Bool, _ invocation: Invocation) throws -> Int32 {
        let zone = invocation.machineZone
        let thisYear = MachineClock.today(in: zone).year
        // Nothing to forget where there is no store: none is made.
        do {
            if try HealthDatabase.reading(path: invocation.storePath, machineZone: zone) == nil {
                throw CommandFailure("no import \(ids[0]) in the store (rhr imports lists them); nothing was forgotten")
            }
        } catch let error as StoreError {
            throw CommandFailure(error.message)
        }
        let store = try openStore(invocation)
        let outcome: ForgetOutcome
        do {
            outcome = try store.forget(ids, force: force, at: MachineClock.now(in: zone))
        } catch {
            throw CommandFailure(error.message)
        }
        guard outcome.refusals.isEmpty else {
            throw CommandFailure(outcome.refusals.joined(separator: "\n") + "; nothing was forgotten")
        }
        invocation.output.write(report(outcome, zone: zone, thisYear: thisYear))
        return 0
    }

    /// What was forgotten, what left and came back, the phones that must resync, and each changed day's value.
    static func report(_ outcome: ForgetOutcome, zone: TimeZone, thisYear: Int) -> String {
        var lines: [String] = []
        for d in outcome.forgotten {
            lines.append("forgot import \(d.id): " + heading(d, zone: zone, thisYear: thisYear))
        }
        var moved = ["\(Wording.count(outcome.removedSamples, "resting sample")) and "
            + "\(Wording.count(outcome.removedHeartRate, "heart-rate summary", plural: "heart-rate summaries")) left the store"]
        if outcome.removedPassedOver > 0 { moved.append("\(Wording.count(outcome.removedPassedOver, "passed-over record")) left") }
        if outcome.restoredSamples + outcome.restoredHeartRate > 0 {
            moved.append("\(Wording.count(outcome.restoredSamples, "resting sample")) and "
                + "\(Wording.count(outcome.restoredHeartRate, "heart-rate summary", plural: "heart-rate summaries")) "
                + "it had replaced came back")
        }
        lines.append("  " + moved.joined(separator: "; "))
        for c in outcome.forgottenCursors {
            lines.append("  the phone's next batch continues from \(TextGate.clipped(c.cursor)) and is refused (cursor_mismatch): "
                + "it must send a full resync (fullResync: true) of \(c.store.rawValue)/\(c.stream)")
        }
        if outcome.changes.isEmpty {
            lines.append("  no day's value changed")
        } else {
            lines.append("  \(Wording.count(outcome.changes.count, "writer's day", plural: "writers' days")) changed "
                + "(one value per day: latest; the history keeps the values that went):")
            for c in outcome.changes.prefix(shownChanges) {
                lines.append("  \(c.day)  \(c.writer.store.displayName)  \(c.writer.name): \(value(c.before)) → \(value(c.after))")
            }
            if outcome.changes.count > shownChanges {
                lines.append("  … and \(Wording.count(outcome.changes.count - shownChanges, "more")) (rhr export shows them all)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "61", "none" (no value that day), "no valid value" (only values kept but left out, R6, R13).
    static func value(_ day: DayValue?) -> String {
        guard let day else { return "none" }
        return day.bpm.map { RestingValue.format($0) } ?? "no valid value"
    }
}
