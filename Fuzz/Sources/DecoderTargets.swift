import Foundation
import RHRCore
@testable import RHRDaemon
import RHRFormats
import RHRJSON

/// One sync batch as a line of JSON: parsed, decoded and validated; a batch that decodes is encoded again, and
/// its encoding must decode again (whether to the same batch is not checked here).
enum SyncBatchTarget {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let value = try? JSONParser.parse(bytes),
              let batch = try? SyncBatchJSON.decode(value, machineZone: zone) else { return }
        let encoded = SyncBatchJSON.encode(batch)
        let text = JSONWriter.bytes(encoded)
        guard let again = try? SyncBatchJSON.decode(try JSONParser.parse(text), machineZone: zone) else {
            fatalError("a decoded batch does not decode again from its own encoding: \(String(decoding: text, as: UTF8.self))")
        }
        _ = again
    }
}

/// One line of the daemon's protocol, as a client sends it: decoded into a request or the error its reply
/// carries, and that reply written.
enum DaemonRequestTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let decoded = RequestDecoder.decode(ArraySlice(bytes), machineZone: SyncBatchTarget.zone)
        switch decoded.result {
        case .success(let request): _ = request.json(id: decoded.id)
        case .failure(let error): _ = DaemonMessage.error(id: decoded.id, error)
        }
    }
}
