import Foundation

// rhr's fuzz targets, one libFuzzer binary (scripts/fuzz builds it with `-sanitize=fuzzer,address`, only when
// RHR_FUZZ is set, so `swift build` never sees it). RHR_FUZZ_TARGET names the target each run drives; each
// target's seed corpus is in Fuzz/<target>/corpus. A target may throw (bad input is refused with an error, as
// it should be); it must not trap, hang, or read out of bounds.

/// The targets by name: what one input is handed to.
let targets: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    "apple-export": AppleExportTarget.run,
    "zip": ZipTarget.run,
    "health-connect": HealthConnectTarget.run,
    "health-auto-export": HealthAutoExportTarget.run,
    "sync-batch": SyncBatchTarget.run,
    "daemon-request": DaemonRequestTarget.run,
    "text-gate": TextGateTarget.run,
]

/// The target this process drives, told once by the environment.
let selected: @Sendable (UnsafeRawBufferPointer) -> Void = {
    let name = ProcessInfo.processInfo.environment["RHR_FUZZ_TARGET"] ?? ""
    guard let target = targets[name] else {
        FileHandle.standardError.write(Data("rhr-fuzz: set RHR_FUZZ_TARGET to one of \(targets.keys.sorted().joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// A private directory for the files the readers are given (they read paths), removed when the process ends.
enum FuzzScratch {
    nonisolated(unsafe) private static var removeAtExit: UnsafeMutablePointer<CChar>?

    static let directory: String = {
        var template = Array((NSTemporaryDirectory() + "/rhr-fuzz-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("rhr-fuzz: cannot make a temporary directory")
        }
        removeAtExit = strdup(made)
        atexit {
            if let path = FuzzScratch.removeAtExit {
                try? FileManager.default.removeItem(atPath: String(cString: path))
            }
        }
        return String(cString: made)
    }()

    /// Writes the input to `name` in the directory and returns its path.
    static func file(_ name: String, _ bytes: UnsafeRawBufferPointer) -> String {
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "rhr-fuzz: cannot write \(path)")
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(n > 0, "rhr-fuzz: cannot write \(path)")
            done += n
        }
        close(fd)
        return path
    }
}
