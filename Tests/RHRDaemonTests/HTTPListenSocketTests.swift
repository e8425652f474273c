@testable import RHRDaemon
import Testing

/// What a name given to `--http` stands for beyond the address listened on.
@Suite("--http: the addresses a name stands for")
struct HTTPListenSocketTests {
    func resolved(_ host: String) throws -> [SocketAddress] { try HTTPAddress(host: host, port: 8787).resolve() }

    @Test func theOtherAddressesAreNamedOnceEachAsNumbers() throws {
        let v6 = try #require(try resolved("::1").first), v4 = try #require(try resolved("127.0.0.1").first)
        #expect(v6.numericHost == "::1" && v4.numericHost == "127.0.0.1")
        // `localhost` on a Debian machine with `::1 localhost` in /etc/hosts: ::1 first, then 127.0.0.1.
        #expect(HTTPListenSocket.others(than: v6, in: [v6, v4, v4]) == ["127.0.0.1"])
        #expect(HTTPListenSocket.others(than: v4, in: [v4]).isEmpty)
    }
}
