import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRSystem

/// `rhr daemon`: serves the store over a Unix socket (docs/design.md section 4) until SIGTERM or SIGINT, which
/// let the push in flight finish and exit 0. `--watch DIR` imports exports that land in DIR; `--http ADDR:PORT`
/// takes phone feeds over HTTP (section 4b).
enum DaemonCommand {
    static let command = Command(
        name: "daemon", operands: .none(hint: "use --watch DIR"),
        summary: "serve the store to live feeds: a Unix socket, phones over HTTP, watched folders",
        options: [
            socketOption,
            .value("watch", "DIR", "import every export that lands in DIR (repeatable)", repeatable: true),
            .value("http", "ADDR:PORT", "take phone feeds over HTTP there (127.0.0.1:8787; see docs/phone-feeds.md)"),
            .value("tls-cert", "FILE", "with --http: serve TLS with this PEM certificate (and its chain)"),
            .value("tls-key", "FILE", "with --http: the certificate's PEM private key"),
            .flag("allow-plain-http", "with --http: plain HTTP off loopback, for a private tunnel (WireGuard, Tailscale)"),
            .value("http-max-body", "N", "with --http: the largest request body, in bytes or with K, M, G (default 64M)"),
            .value("log", "FILE", "also append the log to FILE (created 0600; reopened on SIGHUP, for logrotate)"),
        ],
        run: run)

    static let socketOption = OptionSpec.value("socket", "PATH", "the daemon's socket (default $XDG_RUNTIME_DIR/rhr/rhr.sock)")

    static func run(_ invocation: Invocation) throws -> Int32 {
        let http = try httpConfiguration(invocation)
        // The limit of a folder import's temporary copies (docs/design.md section 8), checked before serving.
        let temporaryCopyLimit: Int64
        do { temporaryCopyLimit = try TemporaryCopyLimit.bytes(environment: invocation.environment) } catch { throw CommandFailure(error.description) }
        // A signal that comes while the daemon starts is handled once it runs, never the default death that leaves
        // the socket and lock files behind; from here on no thread of the daemon dies of SIGPIPE.
        ShutdownSignals.hold()
        let log = try DaemonLog(output: invocation.output, prefix: invocation.prefix,
                                path: invocation.arguments.value("log").map(absolutePath), zone: invocation.machineZone)
        // Every way out says why in the log (and its file) and lets the log finish writing.
        defer { log.finish() }
        do {
            try serve(invocation, http: http, temporaryCopyLimit: temporaryCopyLimit, log: log)
        } catch let failure as CommandFailure {
            log.say(failure.message)
            return 1
        }
        return 0
    }

    private static func serve(_ invocation: Invocation, http: HTTPFeedConfiguration?, temporaryCopyLimit: Int64,
                              log: DaemonLog) throws {
        try StorePath.preparePrivateDirectory(for: invocation.storePath)
        // Absolute, so a client (the dashboard) can tell whether the daemon serves the store it shows.
        var configuration = DaemonConfiguration(socketPath: socketPath(invocation), storePath: absolutePath(invocation.storePath))
        configuration.temporaryCopyLimit = temporaryCopyLimit
        configuration.watchDirectories = invocation.arguments.all("watch").map(absolutePath)
        configuration.machineZone = invocation.machineZone
        configuration.http = http
        configuration.log = { message in log.say(message) }
        configuration.onHangup = { log.reopen() }
        let server: DaemonServer
        do {
            server = try DaemonServer(configuration)
        } catch {
            throw CommandFailure(error.message)
        }
        // SIGHUP and a crash remove the temporary copies of a folder import; SIGTERM and SIGINT stop the
        // server, which lets the import stop, and whatever it left is removed on the way out.
        TemporaryFiles.removeOnSignals()
        server.installSignalHandlers()
        server.run()
        TemporaryFiles.removeAll()
    }

    /// The phone feeds the options ask for; nil without `--http`. Plain HTTP off loopback is refused here, before
    /// anything starts (docs/design.md section 4b).
    static func httpConfiguration(_ invocation: Invocation) throws -> HTTPFeedConfiguration? {
        let arguments = invocation.arguments
        guard let text = arguments.value("http") else {
            if let stray = ["tls-cert", "tls-key", "http-max-body"].first(where: { arguments.value($0) != nil })
                ?? (arguments.has("allow-plain-http") ? "allow-plain-http" : nil) {
                throw UsageError("--\(stray) goes with --http ADDR:PORT")
            }
            return nil
        }
        var configuration: HTTPFeedConfiguration
        do {
            configuration = HTTPFeedConfiguration(address: try HTTPAddress(parsing: text))
        } catch {
            throw UsageError(error.message)
        }
        switch (arguments.value("tls-cert"), arguments.value("tls-key")) {
        case (let certificate?, let key?):
            configuration.tls = .init(certificate: absolutePath(certificate), key: absolutePath(key))
        case (nil, nil):
            break
        default:
            throw UsageError("--tls-cert and --tls-key go together: the certificate and its private key")
        }
        configuration.allowPlainHTTP = arguments.has("allow-plain-http")
        if let size = arguments.value("http-max-body") {
            guard let bytes = ByteSize.parse(size).flatMap({ Int(exactly: $0) }) else {
                throw UsageError("--http-max-body \(size): expected a number of bytes, or one with K, M or G (64M)")
            }
            configuration.maxBody = bytes
        }
        do {
            try configuration.checkTransport()
        } catch {
            throw UsageError(error.message)
        }
        return configuration
    }

    /// `--socket PATH` (made absolute), else the default of docs/design.md section 4.
    static func socketPath(_ invocation: Invocation) -> String {
        invocation.arguments.value("socket").map(absolutePath) ?? SocketPath.defaultPath(environment: invocation.environment)
    }

    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
