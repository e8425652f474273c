import Foundation
import RHRDaemonClient

/// `rhr daemon --http ADDR:PORT [--tls-cert F --tls-key F] [--allow-plain-http] [--http-max-body N]` and the
/// limits that keep one misbehaving phone from starving the rest (docs/design.md section 4b).
public struct HTTPFeedConfiguration: Sendable {
    public var address: HTTPAddress
    /// PEM files of the certificate (with its chain) and its private key; nil serves plain HTTP.
    public var tls: TLSFiles?
    /// Plain HTTP on an address other than loopback, for a private tunnel (WireGuard, Tailscale).
    public var allowPlainHTTP = false
    /// The largest request body: a day of heart rate per minute is about 150 KB; a year's backfill tens of MB.
    public var maxBody = 64 << 20
    /// Connections open at once, from every address together; libmicrohttpd closes any more at once (the phone tries
    /// again later). Far above what one address may hold, so one address cannot fill it.
    public var maxConnections = 256
    /// Connections one address may hold at once; more are closed at once and logged. A reverse proxy on loopback
    /// counts as one address: it should wait for whole requests itself (nginx and Caddy do).
    public var perAddressConnections = 16
    /// Seconds the request line and headers may take to arrive, from the connection (or the answer before, on a kept-
    /// alive connection), before the token is looked at: a client trickling its headers is cut off.
    public var headerTime = 10.0
    /// Seconds a connection may send nothing before it is closed.
    public var idleTimeout = 30
    /// Seconds one request's body may take to arrive whole after its headers: a phone trickling its body has its
    /// connection closed.
    public var requestTime = 120.0
    /// The most bytes of request bodies held at once, over every connection: a request announcing more than is left
    /// is answered 503 with `Retry-After` before its body is read.
    public var maxBodiesInFlight = 256 << 20
    /// GnuTLS's priority string: TLS 1.2 and 1.3 only, GnuTLS's default ciphers for them.
    public var tlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
    /// Requests per second each token may make in the long run, and how many at once (a token bucket): a phone
    /// sending several automations at once is served, one stuck in a loop gets 429.
    public var ratePerSecond = 2.0
    public var rateBurst = 60.0

    public struct TLSFiles: Sendable, Equatable {
        public var certificate: String
        public var key: String

        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    public init(address: HTTPAddress) {
        self.address = address
    }

    /// Plain HTTP only on loopback, unless asked for a private tunnel: a phone's health data and its token would
    /// otherwise cross the network readable by anyone on the way.
    /// `rhr daemon` asks before the store opens; the listening socket asks again of the address it binds.
    public func checkTransport() throws(DaemonError) {
        guard !mayServePlainHTTPAnywhere, try !address.isLoopback() else { return }
        throw plainHTTPRefused
    }

    /// TLS is on, or plain HTTP was allowed for a tunnel: any address will do.
    var mayServePlainHTTPAnywhere: Bool { tls != nil || allowPlainHTTP }

    var plainHTTPRefused: DaemonError {
        DaemonError("refusing plain HTTP on \(address): the phones' health data and tokens would cross the network "
            + "unencrypted. Serve TLS with --tls-cert FILE --tls-key FILE (a certificate the phone trusts), listen on "
            + "127.0.0.1 behind a reverse proxy that does TLS, or, on a private tunnel (WireGuard, Tailscale), give "
            + "--allow-plain-http. See docs/phone-feeds.md")
    }


}
