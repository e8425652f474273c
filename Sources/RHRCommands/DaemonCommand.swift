import Foundation
import RHRDaemon
import RHRFormats

/// `rhr daemon`: serves the store over a Unix socket (docs/design.md section 4) until SIGTERM or SIGINT, which
/// let the push in flight finish and exit 0. `--watch DIR` imports exports that land in DIR.
enum DaemonCommand {
    static let command = Command(
        name: "daemon", arguments: "[--socket PATH] [--watch DIR]...",
        summary: "serve the store to live feeds over a Unix socket (and import exports from folders)",
        options: [
            socketOption,
            .value("watch", "DIR", "import every export that lands in DIR (repeatable)", repeatable: true),
        ],
        run: run)

    static let socketOption = OptionSpec.value("socket", "PATH", "the daemon's socket (default $XDG_RUNTIME_DIR/rhr/rhr.sock)")

    static func run(_ invocation: Invocation) throws -> Int32 {
        guard invocation.arguments.positionals.isEmpty else {
            throw UsageError("rhr daemon takes no paths (got \(invocation.arguments.positionals[0])); use --watch DIR")
        }
        // The limit of a folder import's temporary copies (docs/design.md section 8), checked before serving.
        do { _ = try TemporaryCopyLimit.bytes(environment: invocation.environment) } catch { throw CommandFailure(error.description) }
        try StorePath.preparePrivateDirectory(for: invocation.storePath)
        // Absolute, so a client (the dashboard) can tell whether the daemon serves the store it shows.
        var configuration = DaemonConfiguration(socketPath: socketPath(invocation), storePath: absolutePath(invocation.storePath))
        configuration.watchDirectories = invocation.arguments.all("watch").map(absolutePath)
        configuration.machineZone = invocation.machineZone
        let output = invocation.output
        configuration.log = { message in output.error("rhr daemon: \(message)") }
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
        return 0
    }

    /// `--socket PATH` (made absolute), else the default of docs/design.md section 4.
    static func socketPath(_ invocation: Invocation) -> String {
        invocation.arguments.value("socket").map(absolutePath) ?? SocketPath.defaultPath(environment: invocation.environment)
    }

    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
