import Foundation
@testable import RHRCore
import RHRTestSupport

// Samples for the rules; `ts`, `date` and `day` come from RHRTestSupport.

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
