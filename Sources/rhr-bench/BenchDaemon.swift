import Foundation
import RHRDaemon

/// A daemon running in this process for a bench section, stopped when the value goes away.
final class BenchDaemon {
    let server: DaemonServer
    let socketPath: String

    init(directory: String, storePath: String, zone: TimeZone, configure: (inout DaemonConfiguration) -> Void = { _ in }) throws {
        var configuration = DaemonConfiguration(socketPath: directory + "/rhr.sock", storePath: storePath)
        configuration.machineZone = zone
        configure(&configuration)
        server = try DaemonServer(configuration)
        socketPath = configuration.socketPath
        server.start()
    }

    deinit {
        server.stop()
        server.waitUntilStopped(timeout: 30)
    }
}
