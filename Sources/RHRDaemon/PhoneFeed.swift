import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRStore
import Synchronization

/// A request before its body, as `HTTPFeedServer` hands it over.
struct HTTPRequestHead {
    var method: String
    /// The path without its query.
    var path: String
    /// A request header by name (case-insensitive), nil when absent.
    var header: (String) -> String?
    /// Every value of a request header sent more than once (`Content-Length`), in order.
    var values: (String) -> [String] = { _ in [] }
}

/// What the daemon answers an HTTP request with: always JSON (JSON lines for `/v1/batches`).
struct HTTPAnswer: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType = "application/json"
    var headers: [(String, String)] = []
    /// A refusal's code and message, for the log and the feed's counts.
    var reason: String?
    /// A store failure's own words (SQLite's), for the log only.
    var detail: String?
    /// The store failures of the lines of a `/v1/batches` answer, each as its log line says it.
    var storeFailures: [String] = []

    /// `{"ok":true,…}`.
    static func ok(_ members: JSONObject) -> HTTPAnswer {
        var object: JSONObject = ["ok": true]
        for (key, value) in members { object[key] = value }
        return HTTPAnswer(status: 200, body: Array((JSONWriter.string(.object(object)) + "\n").utf8))
    }

    /// `{"ok":false,"error":{"code":…,"message":…}}`.
    static func error(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) -> HTTPAnswer {
        let object: JSONObject = ["ok": false, "error": ["code": .string(code), "message": .string(message)]]
        return HTTPAnswer(status: status, body: Array((JSONWriter.string(.object(object)) + "\n").utf8), headers: headers,
                          reason: "\(code): \(message)")
    }
}

/// What the HTTP feeds need of the store, through the daemon's store thread (so a subscriber hears of every
/// change at once, as for a socket push).
struct FeedStore: Sendable {
    /// Applies each group of batches in one transaction of its own, in order; nil when the daemon is stopping.
    var apply: @Sendable (_ groups: [[SyncBatch]]) -> [Result<[BatchOutcome], StoreError>]?
    /// What the streams named `stream` delivered; nil when the daemon is stopping.
    var deliveries: @Sendable (_ stream: String) -> Result<[StreamDeliveries], StoreError>?
    /// R14: keeps the batches' passed-over records and nothing else, for a request of which nothing could be used; nil
    /// when the daemon is stopping.
    var keepPassedOver: @Sendable (_ batches: [SyncBatch]) -> Result<Void, StoreError>?
}

/// The phone feeds' endpoints and answers (docs/design.md section 4b): who may send, what a body means, what
/// it changed. `HTTPFeedServer` carries the bytes; this decides. Safe from any of its threads.
final class PhoneFeed: Sendable {
    enum Endpoint: String, CaseIterable, Sendable {
        case healthAutoExport = "/v1/health-auto-export"
        case hcWebhook = "/v1/health-connect-webhook"
        case batches = "/v1/batches"
        case status = "/v1/status"

        var method: String { self == .status ? "GET" : "POST" }

        /// What a body of this endpoint is, in a refusal's words.
        var body: String {
            switch self {
            case .healthAutoExport: "Health Auto Export JSON"
            case .hcWebhook: "HC Webhook JSON"
            case .batches: "sync batches (one JSON object per line)"
            case .status: "nothing"
            }
        }
    }

    /// A request let in: its body is read (up to the limit) and then answered by `answer`.
    struct Admitted: Sendable {
        var endpoint: Endpoint
        /// The token's name; its stream is `http-NAME`.
        var token: String
        var expectedLength: Int?
    }

    enum Admission {
        /// Answered on the head alone; `token` is the known token's name, if the refusal came after it was checked.
        case answer(HTTPAnswer, token: String?)
        case read(Admitted)
    }

    let configuration: HTTPFeedConfiguration
    let tokens: FeedTokens
    /// Each feed's counts, and the log line of each refusal.
    let record: FeedRecord
    private let limiter: RateLimiter
    private let store: FeedStore
    private let machineZone: TimeZone
    private let stopping = Atomic<Bool>(false)
    private let log: (@Sendable (String) -> Void)?

    init(configuration: HTTPFeedConfiguration, tokens: FeedTokens, store: FeedStore, machineZone: TimeZone,
         log: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.tokens = tokens
        self.store = store
        self.machineZone = machineZone
        self.log = log
        record = FeedRecord(log: log)
        limiter = RateLimiter(perSecond: configuration.ratePerSecond, burst: configuration.rateBurst)
    }

    /// From now on every new request is answered 503.
    func beginStop() { stopping.store(true, ordering: .sequentiallyConsistent) }

    // MARK: - Before the body

    /// Decides on the head alone whether the body is read at all: a refusal here reads none of it.
    func admit(_ head: HTTPRequestHead) -> Admission {
        let presented: String
        switch PhoneFeed.presentedToken(head) {
        case .none:
            return .answer(unauthorized("no token: send the header 'Authorization: Bearer TOKEN' or 'api-key: TOKEN' "
                + "(rhr token new NAME makes one)"), token: nil)
        case .flawed(let header, let flaw):
            return .answer(.error(400, "bad_request", "the \(header) header holds \(flaw.words): "
                + "a token is letters, digits, '-' and '_'"), token: nil)
        case .token(let token):
            presented = token
        }
        let token: String
        switch tokens.check(presented) {
        case .known(let name):
            token = name
        case .unknown:
            return .answer(unauthorized("this token is not known: it was revoked or mistyped (rhr token list shows the names)"), token: nil)
        case .unreadable:
            return .answer(unauthorized("the daemon cannot read its tokens file, so no token is known now; "
                + "its log names the file and the line (rhr token list says it too)"), token: nil)
        }
        if let refusal = refusal(afterToken: token, head) { return .answer(refusal, token: token) }
        let length = head.header("Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return .read(Admitted(endpoint: Endpoint(rawValue: head.path) ?? .status, token: token, expectedLength: length))
    }

    /// What refuses a request of a known token on its head: stopping, a path or method not served, too many requests,
    /// a body that is not JSON, or one whose length is absurd, conflicting or over the limit.
    private func refusal(afterToken token: String, _ head: HTTPRequestHead) -> HTTPAnswer? {
        if stopping.load(ordering: .sequentiallyConsistent) {
            return .error(503, "stopping", "the daemon is stopping; send again in a moment", headers: [("Retry-After", "5")])
        }
        guard let endpoint = Endpoint(rawValue: head.path) else {
            let paths = Endpoint.allCases.map { "\($0.method) \($0.rawValue)" }.joined(separator: ", ")
            return .error(404, "not_found", "no such endpoint \(head.path); there are \(paths)")
        }
        guard head.method == endpoint.method else {
            return .error(405, "method_not_allowed", "\(endpoint.rawValue) takes \(endpoint.method), not \(head.method)",
                          headers: [("Allow", endpoint.method)])
        }
        if let wait = limiter.take(token) {
            let seconds = Int(wait.rounded(.up))
            return .error(429, "too_many_requests", "token \(token) sent more requests than the daemon takes from one "
                + "phone; send again in \(seconds) s", headers: [("Retry-After", String(seconds))])
        }
        if let type = head.header("Content-Type"), let refusal = PhoneFeed.notJSON(mediaType: type) { return refusal }
        return lengthRefusal(head)
    }

    /// `Content-Length` must be one number of at most 18 digits, sent once (or repeated with the same value), and not
    /// beside `Transfer-Encoding`: two lengths, or a length and chunks, are read differently by different servers,
    /// the way requests are smuggled past a proxy. Over the limit: 413.
    func lengthRefusal(_ head: HTTPRequestHead) -> HTTPAnswer? {
        let values = Set(head.values("Content-Length").map { $0.trimmingCharacters(in: .whitespaces) })
        guard let text = values.first else { return nil }
        let close = [("Connection", "close")]
        guard values.count == 1 else {
            return .error(400, "bad_request", "the request has \(values.count) different Content-Length headers; send one",
                          headers: close)
        }
        guard head.header("Transfer-Encoding") == nil else {
            return .error(400, "bad_request", "the request has both Content-Length and Transfer-Encoding; send one of them",
                          headers: close)
        }
        guard text.count <= 18, !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
              let length = Int(text) else {
            return .error(400, "bad_request", "Content-Length \(text.prefix(40)) is not a length in bytes", headers: close)
        }
        return length > configuration.maxBody ? tooLarge() : nil
    }

    /// What a request presents as its token.
    enum PresentedToken: Equatable {
        case none
        case token(String)
        /// A header that carries a control character (a NUL and junk after the token): refused, never cut.
        case flawed(header: String, TextFlaw)
    }

    /// `Authorization: Bearer TOKEN`, else `api-key: TOKEN`; either read whole, through the gate.
    static func presentedToken(_ head: HTTPRequestHead) -> PresentedToken {
        for name in ["Authorization", "api-key"] {
            if let value = head.header(name), let flaw = TextGate.flaw(in: value) { return .flawed(header: name, flaw) }
        }
        if let authorization = head.header("Authorization")?.trimmingCharacters(in: .whitespaces),
           authorization.lowercased().hasPrefix("bearer ") {
            let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
            if !token.isEmpty { return .token(token) }
        }
        if let key = head.header("api-key")?.trimmingCharacters(in: .whitespaces), !key.isEmpty { return .token(key) }
        return .none
    }

    private func unauthorized(_ message: String) -> HTTPAnswer {
        .error(401, "unauthorized", message, headers: [("WWW-Authenticate", "Bearer realm=\"rhr\"")])
    }

    func tooLarge() -> HTTPAnswer {
        let limit = configuration.maxBody
        return .error(413, "too_large", "the body is larger than \(ByteSize.words(limit)), the most this daemon takes in one request "
            + "(rhr daemon --http-max-body); send a shorter period")
    }

    /// Health Auto Export's CSV comes as `multipart/form-data`: refused before its body is read.
    static func notJSON(mediaType: String) -> HTTPAnswer? {
        let type = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let refused = type.hasPrefix("multipart/") || ["text/csv", "application/csv", "text/comma-separated-values",
                                                       "application/xml", "text/xml", "application/zip"].contains(type)
        return refused ? unsupported("the body is \(type)") : nil
    }

    private static func unsupported(_ what: String) -> HTTPAnswer {
        .error(415, "unsupported_media_type", "\(what), not JSON: rhr reads JSON only. In Health Auto Export, set the "
            + "automation's Export Format to JSON (CSV is not read)")
    }

    // MARK: - With the body

    /// Reads the body, applies what it says through the store thread and answers with what changed. Blocks until
    /// the store has answered.
    func answer(_ admitted: Admitted, body: [UInt8], receivedAt: Date = Date()) -> HTTPAnswer {
        let stream = FeedTokens.stream(ofToken: admitted.token)
        switch admitted.endpoint {
        case .status:
            return status(token: admitted.token, stream: stream)
        case .batches:
            return PhoneFeed.notJSON(body: body) ?? batches(body, stream: stream)
        case .healthAutoExport, .hcWebhook:
            return PhoneFeed.notJSON(body: body) ?? payload(admitted.endpoint, body, stream: stream, receivedAt: receivedAt)
        }
    }

    /// An empty body, or one that does not start like JSON (a CSV sent without its type).
    static func notJSON(body: [UInt8]) -> HTTPAnswer? {
        guard let first = body.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first else {
            return .error(400, "bad_json", "the body is empty; send the JSON the app writes")
        }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? nil : unsupported("the body does not start like JSON")
    }

    /// A Health Auto Export or HC Webhook body: read, applied in one transaction, answered with its counts.
    private func payload(_ endpoint: Endpoint, _ body: [UInt8], stream: String, receivedAt: Date) -> HTTPAnswer {
        let asOf = Timestamp(date: receivedAt, offsetSeconds: machineZone.secondsFromGMT(for: receivedAt))
        let options = ImportOptions(machineZone: machineZone)
        let imported: ImportedFile
        do throws(InputError) {
            let payload = endpoint == .healthAutoExport
                ? try HealthAutoExportReader.payload(bytes: body, label: endpoint.rawValue, options: options)
                : try HCWebhookReader.payload(bytes: body, label: endpoint.rawValue, receivedAt: asOf, options: options)
            imported = try payload.imported(on: .phoneFeed(stream: stream, receivedAt: asOf))
        } catch {
            // The place as every reader names it: line, column and byte when known, and the JSON path.
            if error.isSyntaxError { return .error(400, "bad_json", "not JSON: " + error.place.words(error.message)) }
            return .error(400, "invalid_payload", error.place.words(error.message)
                + (PhoneFeed.otherFeed(body, than: endpoint).map { "; " + $0 } ?? ""))
        }
        if let why = imported.unusable { return nothingUsable(imported, why: why) }
        guard let results = store.apply([imported.batches]) else { return stoppingAnswer() }
        switch results[0] {
        case .failure(let error):
            return PhoneFeed.storeRefusal(error)
        case .success(let outcomes):
            var members = outcomes.first?.members ?? BatchOutcome().members
            members["stream"] = .string(stream)
            members["store"] = .string(imported.batches.first?.store.rawValue ?? "")
            members["kind"] = .string(imported.kind.description)
            members["records"] = .number(JSONNumber(imported.recordsRead))
            let summary = ImportSummary.words(imported, outcomes)
            members["summary"] = .string(summary)
            log?("\(stream): \(summary)")
            return .ok(members)
        }
    }

    /// R14, the account: a request of which not one record could be used keeps what it passed over, dates no road, and
    /// is answered 422 `nothing_usable` saying why, so that the phone does not look healthy.
    private func nothingUsable(_ imported: ImportedFile, why: String) -> HTTPAnswer {
        guard let kept = store.keepPassedOver(imported.batches) else { return stoppingAnswer() }
        if case .failure(let error) = kept { return PhoneFeed.storeRefusal(error) }
        return .error(422, "nothing_usable", "nothing in the request could be used: \(why)")
    }

    /// Which other endpoint's body `body` is ("this body is HC Webhook JSON: POST it to /v1/health-connect-webhook"), for
    /// the refusal of a body sent to the wrong URL; nil when it is none of theirs, or `endpoint`'s own.
    static func otherFeed(_ body: [UInt8], than endpoint: Endpoint) -> String? {
        guard let object = (try? JSONParser.parse(body))?.object else { return nil }
        let owner: Endpoint
        if object["metrics"] != nil || object["data"]?["metrics"] != nil {
            owner = .healthAutoExport
        } else if HCWebhookReader.isPayload(object) {
            owner = .hcWebhook
        } else if object["store"] != nil && object["asOf"] != nil {
            owner = .batches
        } else {
            return nil
        }
        return owner == endpoint ? nil : "this body is \(owner.body): POST it to \(owner.rawValue)"
    }

    /// `POST /v1/batches`: one batch per line, each applied (or refused) on its own and answered with a line as a
    /// socket `push` is, its `id` the line's number. A batch feeds the token's stream, whatever stream it names:
    /// a token cannot write another phone's stream.
    private func batches(_ body: [UInt8], stream: String) -> HTTPAnswer {
        enum Line { case batch(Int, SyncBatch), refused(Int, ProtocolError) }
        var lines: [Line] = []
        var framer = JSONLineFramer()
        framer.append(body)
        // Each line decoded as it is cut, not all cut first: a body of up to 64 MiB is not held twice over. `finish`
        // gives the last line without an LF, then leaves the framer empty.
        while let item = framer.next() ?? framer.finish() {
            do throws(SyncBatchLines.Refusal) {
                guard var read = try SyncBatchLines.batch(item, maxLineLength: framer.maxLineLength, machineZone: machineZone,
                                                          origin: "batches over HTTP", stream: stream) else { continue }
                read.batch.stream = stream
                lines.append(.batch(item.number, read.batch))
            } catch {
                lines.append(.refused(item.number, ProtocolError(error)))
            }
        }
        let groups: [[SyncBatch]] = lines.compactMap { if case .batch(_, let batch) = $0 { return [batch] } else { return nil } }
        // Another feed's body, not one batch in it: refused whole, as the other endpoints refuse what is not theirs.
        if groups.isEmpty, let other = PhoneFeed.otherFeed(body, than: .batches) {
            return .error(400, "invalid_payload", "expected \(Endpoint.batches.body), each with its store, stream and asOf; "
                + other)
        }
        guard let results = groups.isEmpty ? [] : store.apply(groups) else { return stoppingAnswer() }
        var applied = results.makeIterator()
        var out: [UInt8] = [], failures: [String] = []
        for line in lines {
            switch line {
            case .refused(let number, let error):
                out += DaemonMessage.error(id: .number(JSONNumber(number)), error)
            case .batch(let number, _):
                switch applied.next() {
                case .success(let outcomes)?: out += DaemonMessage.ok(id: .number(JSONNumber(number)), outcomes[0])
                case .failure(let error)?:
                    out += DaemonMessage.error(id: .number(JSONNumber(number)), ProtocolError(error))
                    if error.code == .database || error.code == .busy {
                        failures.append("batch line \(number): \(error.message)" + (error.detail.map { " (\($0))" } ?? ""))
                    }
                case nil: break
                }
            }
        }
        var answer = HTTPAnswer(status: 200, body: out, contentType: "application/x-ndjson")
        answer.storeFailures = failures
        return answer
    }

    /// `GET /v1/status`: the token's stream in each store it fed: as of, last delivery, counts, freshness.
    private func status(token: String, stream: String) -> HTTPAnswer {
        guard let result = store.deliveries(stream) else { return stoppingAnswer() }
        switch result {
        case .failure(let error):
            return PhoneFeed.storeRefusal(error)
        case .success(let deliveries):
            let streams: [JSONValue] = deliveries.map { PhoneFeed.json($0) }
            // This request is counted once its answer goes out: the counts are of the requests before it.
            return .ok(["token": .string(token), "stream": .string(stream), "version": .string(RHRVersion.current),
                        "streams": .array(streams), "requests": record.counts(token: token).json])
        }
    }

    static func json(_ delivery: StreamDeliveries) -> JSONValue {
        let state = delivery.state
        var object: JSONObject = ["store": .string(state.store.rawValue), "stream": .string(state.stream),
                                  "asOf": state.asOf.map { .string($0.iso8601) } ?? .null, "origin": .string(state.origin),
                                  "restingSamples": .number(JSONNumber(delivery.restingSamples)),
                                  "heartRateSamples": .number(JSONNumber(delivery.heartRateSamples)),
                                  "newestRestingDay": state.newestRestingDay.map { .string($0.description) } ?? .null,
                                  "newestHeartRateDay": state.newestHeartRateDay.map { .string($0.description) } ?? .null]
        if let freshness = FeedFreshness(state) {
            object["lastDelivery"] = freshness.lastDelivery.map { .string($0.iso8601) } ?? .null
            object["restingStopped"] = .bool(freshness.restingStopped)
            if freshness.restingStopped { object["advice"] = .string(freshness.phoneAdvice) }
        }
        return .object(object)
    }

    private func stoppingAnswer() -> HTTPAnswer {
        .error(503, "stopping", "the daemon is stopping; nothing of this request was applied; send it again in a moment",
               headers: [("Retry-After", "5")])
    }

    /// The store's refusals in HTTP's words; nothing of the request was applied.
    static func storeRefusal(_ error: StoreError) -> HTTPAnswer {
        switch error.code {
        case .busy:
            return .error(503, "store_busy", "another process is writing the store (an import); nothing of this request was "
                + "applied; send it again in a moment", headers: [("Retry-After", "30")])
        case .invalidBatch: return .error(400, "invalid_batch", error.message)
        case .cursorMismatch: return .error(409, "cursor_mismatch", error.message)
        case .database:
            var answer = HTTPAnswer.error(500, "internal", "the store failed, nothing was applied: \(error.message)")
            answer.detail = error.detail
            return answer
        }
    }
}
