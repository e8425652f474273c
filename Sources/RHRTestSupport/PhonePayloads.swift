import Foundation
import RHRCore
import RHRJSON

/// Request bodies as the phone apps send them (docs/design.md section 4b), for the tests and the bench:
/// Health Auto Export's REST API JSON and HC Webhook's.
public enum PhonePayloads {
    /// A Health Auto Export point: `date` like `2026-11-28 00:00:00 +0100`.
    public struct Point: Sendable {
        public var date: String
        public var value: Double
        public var source: String?

        public init(_ date: String, _ value: Double, source: String? = "Jane’s Apple Watch") {
            self.date = date
            self.value = value
            self.source = source
        }
    }

    /// `{"data":{"metrics":[…]}}` with a `resting_heart_rate` metric (when `resting` is not nil: an empty list
    /// sends the metric without points) and a `heart_rate` metric of Min/Avg/Max points (when not nil).
    public static func healthAutoExport(resting: [Point]? = nil, heartRate: [Point]? = nil, wrapped: Bool = true) -> [UInt8] {
        var metrics: [JSONValue] = []
        if let resting {
            metrics.append(["name": "resting_heart_rate", "units": "count/min", "data": .array(resting.map { point in
                var object: JSONObject = ["date": .string(point.date), "qty": .number(JSONNumber(point.value))]
                if let source = point.source { object["source"] = .string(source) }
                return .object(object)
            })])
        }
        if let heartRate {
            metrics.append(["name": "heart_rate", "units": "count/min", "data": .array(heartRate.map { point in
                var object: JSONObject = ["date": .string(point.date), "Min": .number(JSONNumber(point.value - 3)),
                                          "Avg": .number(JSONNumber(point.value)), "Max": .number(JSONNumber(point.value + 4))]
                if let source = point.source { object["source"] = .string(source) }
                return .object(object)
            })])
        }
        let inner: JSONValue = ["metrics": .array(metrics)]
        return Array(JSONWriter.string(wrapped ? ["data": inner] : inner).utf8)
    }

    /// A day as the app's `Default` period sends it with per-minute aggregation: heart rate every minute of `day`
    /// (1,440 points) and the day's resting value, in the offset `+0100`.
    public static func healthAutoExportDay(_ day: LocalDay, resting: Double = 56, source: String = "Jane’s Apple Watch") -> [UInt8] {
        let date = day.description
        var heartRate: [Point] = []
        heartRate.reserveCapacity(1440)
        for minute in 0..<1440 {
            let time = String(format: "%@ %02d:%02d:00 +0100", date, minute / 60, minute % 60)
            heartRate.append(Point(time, Double(58 + (minute * 7) % 40), source: source))
        }
        return healthAutoExport(resting: [Point("\(date) 00:00:00 +0100", resting, source: source)], heartRate: heartRate)
    }

    /// An HC Webhook record's `metadata`, as the app writes it.
    public static func hcMetadata(origin: String = "com.ouraring.oura", method: String = "automatically_recorded",
                                  device: Bool = true) -> JSONValue {
        var metadata: JSONObject = ["data_origin": .string(origin), "recording_method": .string(method)]
        if device { metadata["device"] = ["manufacturer": "Oura", "model": "Ring 4", "type": 4] }
        return .object(metadata)
    }

    /// `{"timestamp":…,"app_version":…,"resting_heart_rate":[…],"heart_rate":[…]}`: `resting` and `heartRate` as
    /// (instant, bpm); `buckets` as (instant, avg, min, max), the app's N-minute form.
    public static func hcWebhook(resting: [(String, Int)] = [], heartRate: [(String, Int)] = [],
                                 buckets: [(String, Int, Int, Int)] = [], metadata: JSONValue = hcMetadata(),
                                 extra: JSONObject = [:]) -> [UInt8] {
        var payload: JSONObject = ["timestamp": "2026-11-28T07:10:00Z", "app_version": "2.4.0"]
        if !resting.isEmpty {
            payload["resting_heart_rate"] = .array(resting.map {
                ["bpm": .number(JSONNumber($0.1)), "time": .string($0.0), "metadata": metadata]
            })
        }
        if !heartRate.isEmpty || !buckets.isEmpty {
            payload["heart_rate"] = .array(heartRate.map { ["bpm": .number(JSONNumber($0.1)), "time": .string($0.0), "metadata": metadata] }
                + buckets.map { ["time": .string($0.0), "avg": .number(JSONNumber($0.1)), "min": .number(JSONNumber($0.2)),
                                 "max": .number(JSONNumber($0.3)), "metadata": metadata] })
        }
        for (key, value) in extra { payload[key] = value }
        return Array(JSONWriter.string(.object(payload)).utf8)
    }
}
