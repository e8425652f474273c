import Foundation
import RHRCore
import RHRFormats

// The import benchmark (docs/design.md section 7): on a generated export of a given size, rhr's reader against
// `grep -c` (bare XML) and `unzip -p` (zip), wall time and peak RSS, measured side by side in one run.
//
//   rhr-bench import [--size MB]... [--hae-size MB] [--runs N] [--seed N] [--dir DIR] [--fresh]
//                                      (times `rhr import` of the XML and the zip into an empty store, and the
//                                       reader alone, against grep -c and unzip -p; then of a Health Auto Export
//                                       file against `jq length`; rhr must be built beside it)
//   rhr-bench import generate --size MB --out FILE [--seed N]
//   rhr-bench import read FILE [--digest] (the measured child: reads one export, prints what it found; --digest
//                                       adds a hash of everything the batch holds, to compare two builds' readers)
//   rhr-bench import read-hae FILE      (the same for a Health Auto Export file)
//
// Options other sections take are passed over, so `scripts/bench` can hand every section the same ones.
enum ImportBench {
    static func run(_ arguments: [String]) throws {
        switch arguments.first {
        case "read": try read(Array(arguments.dropFirst()))
        case "read-hae": try readHealthAutoExport(Array(arguments.dropFirst()))
        case "generate": try generate(Array(arguments.dropFirst()))
        default: try measure(arguments)
        }
    }

    struct Options {
        var sizes: [Int] = []
        /// The size of the generated Health Auto Export file; 0 leaves that part out.
        var haeSize = 100
        var runs = 3
        var seed: UInt64 = 1
        var dir = "bench-out"
        var fresh = false
        var out: String?

        init(_ arguments: [String]) throws {
            var i = 0
            func value() throws -> String {
                i += 1
                guard i < arguments.count else { throw GeneratorError(message: "\(arguments[i - 1]) needs a value") }
                return arguments[i]
            }
            while i < arguments.count {
                switch arguments[i] {
                case "--size":
                    for part in try value().split(separator: ",") {
                        guard let mb = Int(part), mb > 0 else { throw GeneratorError(message: "--size takes megabytes, e.g. 500") }
                        sizes.append(mb)
                    }
                case "--hae-size":
                    guard let mb = Int(try value()), mb >= 0 else { throw GeneratorError(message: "--hae-size takes megabytes, e.g. 100") }
                    haeSize = mb
                case "--runs":
                    guard let n = Int(try value()), n > 0 else { throw GeneratorError(message: "--runs takes a count") }
                    runs = n
                case "--seed":
                    guard let n = UInt64(try value()) else { throw GeneratorError(message: "--seed takes a number") }
                    seed = n
                case "--dir": dir = try value()
                case "--out": out = try value()
                case "--fresh": fresh = true
                default: break
                }
                i += 1
            }
            if sizes.isEmpty { sizes = [500] }
        }
    }

    // MARK: - The child that is measured

    private static func read(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw GeneratorError(message: "read needs a file") }
        let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil)
        let batch = file.batches[0]
        let heartRate = batch.heartRate.reduce(0) { $0 + $1.total }
        print("records=\(file.recordsRead) resting=\(batch.resting.count) heartRate=\(heartRate) "
            + "outOfRange=\(batch.resting.filter { !$0.isInRange }.count) watches=\(batch.watchWriters.count)"
            + (arguments.contains("--digest") ? " digest=\(digest(file))" : ""))
    }

    /// FNV-1a over all that the reader found (`AppleHealthReader.comparableText`).
    private static func digest(_ file: ImportedFile) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in AppleHealthReader.comparableText(file).utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    private static func readHealthAutoExport(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw GeneratorError(message: "read-hae needs a file") }
        let file = try HealthAutoExportReader.read(path: path, options: ImportOptions(), progress: nil)
        let batch = file.batches[0]
        print("points=\(file.recordsRead) resting=\(batch.resting.count) heartRate=\(batch.heartRate.reduce(0) { $0 + $1.total })")
    }

    // MARK: - Generation

    private static func generate(_ arguments: [String]) throws {
        let options = try Options(arguments)
        guard let out = options.out else { throw GeneratorError(message: "generate needs --out FILE") }
        let stats = try ExportGenerator(seed: options.seed).write(to: out, targetBytes: Int64(options.sizes[0]) << 20)
        print("\(out): \(megabytes(stats.bytes)) MB, \(stats.days) days, \(stats.records) records")
    }

    /// The export and its zip for a size and seed, generated once and kept in `dir` (which git ignores).
    private static func prepare(size: Int, options: Options) throws -> (xml: String, zip: String, stats: String) {
        let folder = "\(options.dir)/import-\(size)MB-seed\(options.seed)"
        let xml = "\(folder)/apple_health_export/export.xml"
        let zip = "\(folder)/export.zip"
        let stamp = "\(folder)/stamp"
        let version = "generator 1, \(size) MB, seed \(options.seed)"
        let fm = FileManager.default
        if !options.fresh, let text = try? String(contentsOfFile: stamp, encoding: .utf8), text.hasPrefix(version + "\n"),
           fm.fileExists(atPath: xml), fm.fileExists(atPath: zip) {
            return (xml, zip, String(text.dropFirst(version.count + 1)).trimmingCharacters(in: .newlines))
        }
        try? fm.removeItem(atPath: folder)
        try fm.createDirectory(atPath: "\(folder)/apple_health_export", withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        log("import: generating a \(size) MB export (seed \(options.seed)) in \(folder) …")
        let stats = try ExportGenerator(seed: options.seed).write(to: xml, targetBytes: Int64(size) << 20)
        // A small clinical document beside it, as Apple's zip has: not the export, to be passed over.
        try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\">\n <title>Health Data Export</title>\n</ClinicalDocument>\n".utf8)
            .write(to: URL(fileURLWithPath: "\(folder)/apple_health_export/export_cda.xml"))
        log("import: zipping …")
        let zipped = Child.run(["sh", "-c", "cd \"$1\" && zip -q -X export.zip apple_health_export/export.xml apple_health_export/export_cda.xml",
                                "sh", folder], stdout: "/dev/null")
        guard zipped.status == 0 else { throw GeneratorError(message: "zip failed (status \(zipped.status)): is zip installed? run scripts/setup") }
        let summary = "\(megabytes(stats.bytes)) MB, \(stats.days) days, \(grouped(stats.records)) records "
            + "(\(grouped(stats.heartRateRecords)) heart rate, \(grouped(stats.restingRecords)) resting)"
        try Data("\(version)\n\(summary)\n".utf8).write(to: URL(fileURLWithPath: stamp))
        return (xml, zip, summary)
    }

    // MARK: - Measurement

    private static func measure(_ arguments: [String]) throws {
        let options = try Options(arguments)
        let me = try selfPath()
        // `rhr` is built beside rhr-bench (scripts/bench builds every product in release mode).
        let rhr = PathText.join(PathText.parent(me), "rhr")
        guard FileManager.default.isExecutableFile(atPath: rhr) else {
            throw GeneratorError(message: "\(rhr) is missing: build it (swift build -c release) before measuring")
        }
        let storeFolder = "\(options.dir)/import-store"
        try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let store = "\(storeFolder)/rhr.sqlite"
        /// `rhr import` of one file into a store that is empty at each run.
        func importInto(_ file: String) -> Child.Result {
            for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
            return Child.run([rhr, "--store", store, "import", file])
        }

        for size in options.sizes {
            let (xml, zip, summary) = try prepare(size: size, options: options)
            let zipSize = ((try? FileManager.default.attributesOfItem(atPath: zip))?[.size] as? NSNumber)?.int64Value ?? 0
            print("import: \(xml): \(summary); zip \(megabytes(zipSize)) MB")
            // Warm the page cache so every command reads from memory, as grep's figure assumes.
            _ = Child.run(["cat", xml, zip], stdout: "/dev/null")

            let grep = best(options.runs) { Child.run(["grep", "-c", "HKQuantityTypeIdentifierRestingHeartRate", xml]) }
            let importXML = best(options.runs) { importInto(xml) }
            let readXML = best(options.runs) { Child.run([me, "import", "read", xml]) }
            let unzip = best(options.runs) { Child.run(["unzip", "-p", zip], stdout: "/dev/null") }
            let importZip = best(options.runs) { importInto(zip) }
            let readZip = best(options.runs) { Child.run([me, "import", "read", zip]) }
            let all = [("grep", grep), ("rhr import export.xml", importXML), ("reader xml", readXML), ("unzip", unzip),
                       ("rhr import export.zip", importZip), ("reader zip", readZip)]
            for (name, m) in all where m.status != 0 {
                throw GeneratorError(message: "\(name) failed with status \(m.status): \(m.output)\(m.errors)")
            }
            let label = 50
            func row(_ what: String, _ m: Child.Result, _ against: Child.Result?, _ base: String, _ target: Double?) -> String {
                var line = what.padding(toLength: label, withPad: " ", startingAt: 0)
                    + String(format: "%8.3f s %8.1f MB", m.seconds, Double(m.maxRSSKB) / 1024)
                if let against {
                    let ratio = m.seconds / against.seconds
                    line += String(format: "   %5.2f × %@", ratio, base)
                    if let target { line += String(format: " (target ≤ %g: %@)", target, ratio <= target ? "met" : "missed") }
                }
                return line
            }
            print("  wall: median of \(options.runs) runs, warm page cache; peak RSS: the largest of the runs, "
                + (Child.rssIsExact ? "by GNU time" : "by wait4, an upper bound (it includes rhr-bench's own ~25 MB; install GNU time for exact figures)"))
            print("  " + row("grep -c HKQuantityTypeIdentifierRestingHeartRate", grep, nil, "", nil))
            print("  " + row("rhr import export.xml (empty store)", importXML, grep, "grep", 3))
            print("  " + row("  the reader alone (no store)", readXML, grep, "grep", nil))
            print("  " + row("unzip -p export.zip > /dev/null", unzip, nil, "", nil))
            print("  " + row("rhr import export.zip (empty store)", importZip, unzip, "unzip", 1))
            print("  " + row("  the reader alone (no store)", readZip, unzip, "unzip", nil))
            let peak = max(importXML.maxRSSKB, importZip.maxRSSKB)
            print(String(format: "  peak RSS of rhr import: %.1f MB (target ≤ 64 MB: %@)", Double(peak) / 1024,
                         peak <= 64 * 1024 ? "met" : "missed"))
            print("  rhr import said: \(importXML.output.trimmingCharacters(in: .whitespacesAndNewlines))")
            print("  grep counted \(grep.output.trimmingCharacters(in: .whitespacesAndNewlines)) resting lines; "
                + "the reader: \(readXML.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        try measureHealthAutoExport(options: options, rhr: rhr, me: me, importInto: importInto)
    }

    /// docs/design.md section 7: a Health Auto Export import of any size in ≤ 64 MB, within 3 × `jq length` on the
    /// same file (jq parses the whole document, as a reader that holds it would).
    private static func measureHealthAutoExport(options: Options, rhr: String, me: String,
                                                importInto: (String) -> Child.Result) throws {
        guard let (file, summary) = try prepareHealthAutoExport(options: options) else { return }
        print("import: \(file): \(summary)")
        _ = Child.run(["cat", file], stdout: "/dev/null")
        let jq = best(options.runs) { Child.run(["jq", "length", file]) }
        guard jq.status == 0 else { throw GeneratorError(message: "jq failed (status \(jq.status)): is jq installed? run scripts/setup") }
        let imported = best(options.runs) { importInto(file) }
        let reader = best(options.runs) { Child.run([me, "import", "read-hae", file]) }
        for (name, m) in [("rhr import", imported), ("the reader", reader)] where m.status != 0 {
            throw GeneratorError(message: "\(name) failed with status \(m.status): \(m.output)\(m.errors)")
        }
        func row(_ what: String, _ m: Child.Result, _ ratio: Bool) -> String {
            var line = what.padding(toLength: 50, withPad: " ", startingAt: 0)
                + String(format: "%8.3f s %8.1f MB", m.seconds, Double(m.maxRSSKB) / 1024)
            if ratio {
                let r = m.seconds / jq.seconds
                line += String(format: "   %5.2f × jq (target ≤ 3: %@)", r, r <= 3 ? "met" : "missed")
            }
            return line
        }
        print("  " + row("jq length HealthAutoExport.json", jq, false))
        print("  " + row("rhr import HealthAutoExport.json (empty store)", imported, true))
        print("  " + row("  the reader alone (no store)", reader, false))
        print(String(format: "  peak RSS of rhr import: %.1f MB (target ≤ 64 MB: %@)", Double(imported.maxRSSKB) / 1024,
                     imported.maxRSSKB <= 64 * 1024 ? "met" : "missed"))
        print("  the reader: \(reader.output.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// The Health Auto Export file for `--hae-size` and the seed, generated once and kept in `dir`, and its summary; nil
    /// for `--hae-size 0`.
    static func prepareHealthAutoExport(options: Options) throws -> (file: String, summary: String)? {
        let size = options.haeSize
        guard size > 0 else { return nil }
        let folder = "\(options.dir)/hae-\(size)MB-seed\(options.seed)"
        let file = "\(folder)/HealthAutoExport.json"
        let stamp = "\(folder)/stamp"
        let version = "hae generator 1, \(size) MB, seed \(options.seed)"
        let fm = FileManager.default
        var summary: String
        if !options.fresh, let text = try? String(contentsOfFile: stamp, encoding: .utf8), text.hasPrefix(version + "\n"),
           fm.fileExists(atPath: file) {
            summary = String(text.dropFirst(version.count + 1)).trimmingCharacters(in: .newlines)
        } else {
            try? fm.removeItem(atPath: folder)
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            log("import: generating a \(size) MB Health Auto Export file (seed \(options.seed)) in \(folder) …")
            let stats = try HealthAutoExportGenerator(seed: options.seed).write(to: file, targetBytes: Int64(size) << 20)
            summary = "\(megabytes(stats.bytes)) MB, \(stats.days) days, \(grouped(stats.heartRatePoints)) heart-rate points, "
                + "\(grouped(stats.restingPoints)) resting"
            try Data("\(version)\n\(summary)\n".utf8).write(to: URL(fileURLWithPath: stamp))
        }
        return (file, summary)
    }

    /// Runs `body` `runs` times: the median wall time, the largest peak RSS.
    private static func best(_ runs: Int, _ body: () -> Child.Result) -> Child.Result {
        let results = (0..<runs).map { _ in body() }
        var median = results.sorted { $0.seconds < $1.seconds }[runs / 2]
        median.maxRSSKB = results.map(\.maxRSSKB).max() ?? 0
        if let failed = results.first(where: { $0.status != 0 }) { return failed }
        return median
    }

    private static func selfPath() throws -> String {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return path
    }

    private static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

    private static func grouped(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: n)) ?? "\(n)"
    }

    private static func log(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
    }
}

/// A child process, timed, with its peak RSS.
///
/// Linux's `wait4`/`getrusage(RUSAGE_CHILDREN)` figure for a spawned child is at least the parent's own peak:
/// at `exec` the kernel records the high-water mark of the memory the child shared with its parent. rhr-bench
/// itself holds ~25 MB (Swift runtime and Foundation), so that figure would hide a small child. When GNU time is
/// installed, the child is started through it instead: it forks from a process of ~2 MB, and reports the child's
/// own peak from its `wait4`. Without it, `wait4`'s figure is used and marked as an upper bound.
enum Child {
    static let gnuTime = "/usr/bin/time"
    static var rssIsExact: Bool { FileManager.default.isExecutableFile(atPath: gnuTime) }

    struct Result {
        var status: Int32
        var seconds: Double
        var maxRSSKB: Int
        var output: String
        /// What the child wrote on stderr (a progress bar stays off: stderr is not a terminal).
        var errors: String = ""
    }

    /// Runs `argv` (searched in PATH), stdout to `stdout` or captured, stderr inherited.
    static func run(_ argv: [String], stdout: String? = nil) -> Result {
        let capture = stdout == nil ? "\(NSTemporaryDirectory())/rhr-bench-\(getpid())-out" : nil
        let rssFile = "\(NSTemporaryDirectory())/rhr-bench-\(getpid())-rss"
        let argv = rssIsExact ? [gnuTime, "-f", "%M", "-o", rssFile] + argv : argv
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? capture!, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let errorFile = "\(NSTemporaryDirectory())/rhr-bench-\(getpid())-err"
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let started = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ)
        guard spawned == 0 else { return Result(status: -1, seconds: 0, maxRSSKB: 0, output: "cannot run \(argv[0])") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var output = ""
        if let capture {
            output = (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
            unlink(capture)
        }
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var maxRSSKB = usage.ru_maxrss
        if rssIsExact {
            // GNU time writes "Command exited with non-zero status N" first when the child failed.
            let text = (try? String(contentsOfFile: rssFile, encoding: .utf8)) ?? ""
            maxRSSKB = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? maxRSSKB
            unlink(rssFile)
        }
        let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        unlink(errorFile)
        return Result(status: exitStatus, seconds: seconds, maxRSSKB: maxRSSKB, output: output, errors: errors)
    }
}
