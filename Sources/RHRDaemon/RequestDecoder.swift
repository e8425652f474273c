import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON

/// Turns one request line into a request, or into the error its reply carries.
enum RequestDecoder {
    struct Decoded {
        /// The request's `id`, echoed in its reply (also when the request is refused).
        var id: JSONValue?
        var result: Result<DaemonRequest, ProtocolError>
    }

    static func decode(_ line: ArraySlice<UInt8>, machineZone: TimeZone) -> Decoded {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            // One line: its column and the JSON path say where.
            let place = InputPlace(column: error.column, path: error.path)
            return Decoded(id: nil, result: .failure(ProtocolError(.badJSON, "not JSON: " + place.words(error.message))))
        }
        guard case .object(let object) = value else {
            return Decoded(id: nil, result: .failure(ProtocolError(.badRequest, "a request must be a JSON object, not \(value.kindName)")))
        }
        let id = object["id"]
        do {
            return Decoded(id: id, result: .success(try request(JSONMembers(object), machineZone: machineZone)))
        } catch {
            return Decoded(id: id, result: .failure(error))
        }
    }

    private static func request(_ request: JSONMembers, machineZone: TimeZone) throws(ProtocolError) -> DaemonRequest {
        let known = DaemonProtocol.operations.joined(separator: ", ")
        let op: String
        do {
            op = try request.requiredString("op", why: "expected one of \(known)")
        } catch {
            throw ProtocolError(request: error)
        }
        if op == "push" {
            guard let batch = request.value("batch") else {
                throw ProtocolError(request: request.error("batch", "missing; a push carries one batch object"))
            }
            do {
                return .push(try SyncBatchJSON.decode(batch, machineZone: machineZone, origin: ""))
            } catch {
                throw ProtocolError(batch: error)
            }
        }
        do throws(JSONPathError) {
            switch op {
            case "hello": return .hello
            case "subscribe": return .subscribe
            case "status": return .status
            case "days":
                let from = try request.day("from"), to = try request.day("to")
                if let from, let to, from > to { throw request.error("from", "\(from) is after to: \(to)") }
                let aggregation = try request.decode("aggregate", #""latest", "lowest" or "mean""#) {
                    $0.string.flatMap(Aggregation.init(rawValue:))
                }
                return .days(from: from, to: to, aggregation: aggregation ?? .latest)
            case "cursor":
                let store = try request.store("store")
                return .cursor(store: store, stream: try request.requiredString("stream", why: "the stream's name"))
            default:
                throw request.error("op", "unknown operation \"\(op)\"; expected one of \(known)")
            }
        } catch {
            throw ProtocolError(request: error)
        }
    }
}
