import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRTestSupport
import Testing

/// Where the daemon listens and who may connect (docs/design.md sections 4 and 8).
@Suite("daemon socket")
struct SocketTests {
    @Test func defaultPathUsesTheRuntimeDirectoryElseAPrivateOneInTmp() {
        #expect(SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/rhr/rhr.sock")
        #expect(SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]) == "/run/user/1000/rhr/rhr.sock")
        #expect(SocketPath.defaultPath(environment: [:]) == "/tmp/rhr-\(getuid())/rhr.sock")
        // A relative runtime directory is not one (the XDG spec: absolute only).
        #expect(SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "run"]) == "/tmp/rhr-\(getuid())/rhr.sock")
    }

    @Test func theSocketIs0600InA0700Directory() throws {
        let directory = try TemporaryDirectory()
        // Even under a loose umask the directory and socket end private (an open directory made beforehand:
        // anOpenDirectoryNotRHRsIsRefusedAndLeftAsItWas).
        let old = umask(0)
        defer { umask(old) }
        let daemon = try TestDaemon(directory: directory)
        #expect(FileMode.permissions(directory.path + "/run") == 0o700)
        #expect(FileMode.permissions(daemon.socketPath) == 0o600)
        #expect(FileMode.status(daemon.socketPath).map { $0.st_mode & S_IFMT } == S_IFSOCK)
        #expect(FileMode.permissions(directory.storePath) == 0o600)
        try daemon.stop()
        // A clean stop removes the socket.
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func aStoppedDaemonHasClosedItsStore() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.client().push(chainBatch(stream: "iphone", 1)).isOK)
        let log = daemon.directory.storePath + "-wal"
        #expect(FileManager.default.fileExists(atPath: log), "the push went to the write-ahead log")
        try daemon.stop()
        // Its last connection closed, SQLite folded the log back into the store and removed it: `stop()`
        // returned with the store closed, so a caller may remove or copy the files at once.
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test func aMissingDirectoryIsMadePrivateWithItsParents() throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path + "/a/b/rhr.sock"
        let daemon = try TestDaemon(directory: directory) { $0.socketPath = socket }
        #expect(FileMode.permissions(directory.path + "/a") == 0o700)
        #expect(FileMode.permissions(directory.path + "/a/b") == 0o700)
        #expect(try DaemonClient(socketPath: socket).request(.hello).isOK)
        try daemon.stop()
    }

    /// A daemon asked to put its socket straight into `name`, a directory of `mode` that is not rhr's own: refused
    /// with `message` after the directory's path, which keeps its mode, with nothing made in it.
    func expectRefused(socketIn name: String, mode: mode_t, _ message: String, in directory: TemporaryDirectory) {
        let path = directory.file(name)
        mkdir(path, 0o700)
        chmod(path, mode)
        do {
            _ = try DaemonServer(DaemonConfiguration(socketPath: path + "/rhr.sock", storePath: directory.storePath))
            Issue.record("a daemon started with its socket directly in \(name), mode \(String(mode, radix: 8))")
        } catch {
            #expect(error.message.hasPrefix("\(path): \(message)"))
        }
        #expect(FileMode.modeBits(path) == Int(mode), "the directory's mode changed")
        #expect(!FileManager.default.fileExists(atPath: path + "/rhr.sock"))
        #expect(!FileManager.default.fileExists(atPath: path + "/rhr.sock.lock"))
    }

    @Test func aSharedStickyDirectoryIsRefusedAndLeftAsItWas() throws {
        // What /tmp is: everyone may write, the sticky bit keeps their files apart. Closing it to 0700 would
        // break everyone else (and as root, rhr owns /tmp, so the ownership check alone does not stop it).
        expectRefused(socketIn: "shared", mode: 0o1777, "the socket's directory is shared (sticky, like /tmp)",
                      in: try TemporaryDirectory())
    }

    @Test func anOpenDirectoryNotRHRsIsRefusedAndLeftAsItWas() throws {
        // A home directory given with --socket ~/rhr.sock: rhr must not close it to everyone else.
        let directory = try TemporaryDirectory()
        expectRefused(socketIn: "home", mode: 0o755, "the socket's directory is open to others (mode 755)", in: directory)
        // rhr's own directory, left open by someone, is tightened.
        let own = directory.path + "/rhr"
        mkdir(own, 0o755)
        chmod(own, 0o755)
        let daemon = try TestDaemon(directory: directory) { $0.socketPath = own + "/rhr.sock" }
        #expect(FileMode.permissions(own) == 0o700)
        try daemon.stop()
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let daemon = try TestDaemon()
        #expect(throws: DaemonError.self) {
            try DaemonServer(DaemonConfiguration(socketPath: daemon.socketPath, storePath: daemon.directory.file("other.sqlite")))
        }
        do {
            _ = try DaemonServer(DaemonConfiguration(socketPath: daemon.socketPath, storePath: daemon.directory.file("other.sqlite")))
        } catch {
            #expect(error.message == "another rhr daemon is already listening on \(daemon.socketPath); stop it first (or use --socket for another path)")
        }
        // The first one is untouched.
        #expect(try daemon.client().request(.hello).isOK)
    }

    @Test func aStaleSocketIsReplaced() throws {
        let directory = try TemporaryDirectory()
        mkdir(directory.path + "/run", 0o700)
        // What a crashed daemon leaves: a socket file nobody listens on.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(directory.socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(fd)
        #expect(!DaemonClient.isListening(socketPath: directory.socketPath))

        let daemon = try TestDaemon(directory: directory)
        #expect(try daemon.client().request(.hello).isOK)
    }

    @Test func aFileThatIsNotASocketIsNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        mkdir(directory.path + "/run", 0o700)
        #expect(FileManager.default.createFile(atPath: directory.socketPath, contents: Data("keep me".utf8)))
        #expect(throws: DaemonError("\(directory.socketPath) exists and is not a socket; not replacing it")) {
            try DaemonServer(DaemonConfiguration(socketPath: directory.socketPath, storePath: directory.storePath))
        }
        #expect(try String(contentsOfFile: directory.socketPath, encoding: .utf8) == "keep me")
    }

    @Test func aTooLongPathIsRefusedInWords() throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path + "/" + String(repeating: "d", count: 100) + "/rhr.sock"
        #expect {
            try DaemonServer(DaemonConfiguration(socketPath: socket, storePath: directory.storePath))
        } throws: { error in
            (error as? DaemonError)?.message.contains("at most 107") == true
        }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        // Only root can give a directory away; elsewhere this rule cannot be set up.
        guard getuid() == 0 else { return }
        let directory = try TemporaryDirectory()
        mkdir(directory.path + "/run", 0o700)
        chown(directory.path + "/run", 65534, 65534)
        #expect {
            try DaemonServer(DaemonConfiguration(socketPath: directory.socketPath, storePath: directory.storePath))
        } throws: { error in
            (error as? DaemonError)?.message.contains("belongs to uid 65534") == true
        }
    }

    @Test func aPeerOfAnotherUIDIsRefused() throws {
        // SO_PEERCRED: the daemon serves its own uid only. Played here by a daemon told to allow another uid.
        let daemon = try TestDaemon { $0.allowedUID = getuid() + 1 }
        let client = try daemon.client()
        #expect(client.waitForClose(timeout: 5), "the daemon kept a connection of a uid it does not allow")
        #expect(throws: DaemonClientError.self) { try client.request(.hello, timeout: 2) }
    }

    @Test func aProcessOfAnotherUserCannotReachTheSocket() throws {
        // With root, run a real client as nobody: the 0700 directory stops it before the socket does.
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let daemon = try TestDaemon()
        chmod(daemon.directory.path, 0o755)
        let rhr = try RHRSandbox(directory: daemon.directory)
        let pushed = try Subprocess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                             try SourceTree.builtProduct("rhr"), "push", "--socket",
                                                             daemon.socketPath, "-"], environment: rhr.environment)
        #expect(pushed.status == 1)
        let message = pushed.stderr
        #expect(message.contains("not allowed to connect"), "\(message)")
    }
}

/// docs/design.md section 8, version skew: a daemon says beside its store that it serves it, on any socket, for a newer
/// rhr to find; the file goes when the daemon stops.
@Suite("the daemon's file beside its store")
struct DaemonRecordTests {
    @Test func aRunningDaemonIsFoundBesideItsStoreAndItsFileGoesWhenItStops() throws {
        let directory = try TemporaryDirectory()
        let daemon = try TestDaemon(directory: directory)
        let found = ServingDaemons.find(store: directory.storePath, sockets: [])
        #expect(found == [ServingDaemon(pid: getpid(), socket: directory.socketPath, store: directory.storePath,
                                        version: RHRVersion.current, build: RHRVersion.build)])
        #expect(found.first?.isThisBuild == true)
        let record = ServingDaemons.recordPrefix(forStore: directory.storePath) + String(getpid())
        #expect(FileMode.permissions(record) == 0o600)
        // Its hello names its build, so two builds of one version can be told apart.
        let hello = try daemon.client().request(.hello).decode(HelloReply.self)
        #expect(hello.build == RHRVersion.build)
        try daemon.stop()
        #expect(!FileManager.default.fileExists(atPath: record))
        #expect(ServingDaemons.find(store: directory.storePath, sockets: [directory.socketPath]).isEmpty)
    }
}
