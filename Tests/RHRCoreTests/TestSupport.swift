import Foundation
@testable import RHRCore

/// A timestamp from an ISO-8601 or Apple date literal; fails the test loudly when the literal is wrong.
func ts(_ text: String) -> Timestamp {
    guard let t = Timestamp.parse(text) else { fatalError("bad test date \(text)") }
    return t
}

func date(_ text: String) -> Date { ts(text).date }

func day(_ text: String) -> LocalDay {
    guard let d = LocalDay(text) else { fatalError("bad test day \(text)") }
    return d
}

let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")

func hkSample(_ start: String, _ end: String, _ value: Double, unit: String = "count/min", writer: Writer = watch,
              created: String? = nil, timeZone: String? = nil) -> RestingSample {
    let s = ts(start)
    return RestingSample(store: .healthKit, writer: writer, start: s.date, end: date(end), offsetSeconds: s.offsetSeconds,
                         timeZoneIdentifier: timeZone, value: value, unit: unit, created: created.map(date))
}

func hcSample(_ id: String, _ time: String, offset: Int?, _ bpm: Int64, writer: Writer = oura,
              lastModified: String? = nil) -> RestingSample {
    RestingSample.healthConnect(id: id, writer: writer, time: date(time), zoneOffset: offset, beatsPerMinute: bpm,
                                lastModified: lastModified.map(date))
}
