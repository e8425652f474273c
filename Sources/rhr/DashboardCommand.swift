import Foundation
import RHRCore
import RHRDashboard
import RHRStore
import RHRTerminal

/// `rhr` with no subcommand: the dashboard on the store. When stdout is not a terminal it prints the plain
/// summary instead, and never starts curses.
enum DashboardCommand {
    /// Exit statuses: 0 for q and Ctrl-C, 128 + the signal for SIGTERM and SIGHUP, 1 when the store fails.
    @MainActor
    static func run(storePath: String, source: String, summary: (DashboardData) -> Void) -> Int32 {
        let database: HealthDatabase
        let data: DashboardData
        do {
            database = try HealthDatabase(path: storePath)
            data = try DashboardLoader.load(database, source: source)
        } catch {
            FileHandle.standardError.write(Data("rhr: \(error)\n".utf8))
            return 1
        }
        guard isatty(STDOUT_FILENO) == 1, let terminal = CursesTerminal.open(environment: ProcessInfo.processInfo.environment)
        else {
            summary(data)
            return 0
        }
        let session = DashboardSession(load: { () throws -> DashboardData in
            try DashboardLoader.load(database, source: source)
        })
        let exit: DashboardExit
        do {
            exit = try session.run(on: terminal, initial: data)
        } catch {
            terminal.close()
            FileHandle.standardError.write(Data("rhr: \(error)\n".utf8))
            return 1
        }
        terminal.close()
        switch exit {
        case .quit, .signal(.interrupt): return 0
        case .signal(.terminate): return 128 + SIGTERM
        case .signal(.hangup): return 128 + SIGHUP
        }
    }
}

extension DashboardCommand {
    /// A stand-in for `rhr summary` until the command line has it: the last week per writer, in plain text.
    static func plainSummary(_ data: DashboardData) {
        let values = DayAggregator.days(data.samples, by: .latest)
        guard let last = values.map(\.day).max() else {
            print("rhr: no resting heart rate in the store. \(DashboardRenderer.wellnessNote)")
            return
        }
        let from = last.adding(days: -6)
        print("date,store,writer,aggregate,bpm,provisional,offset_assumed,out_of_range")
        for v in values where v.day >= from {
            print("\(v.day),\(v.store.rawValue),\(v.writer.name),latest,\(v.bpmText),\(v.provisional),\(v.offsetAssumed),\(v.outOfRange)")
        }
    }

    /// `$XDG_DATA_HOME/rhr/rhr.sqlite`, else `~/.local/share/rhr/rhr.sqlite`; the directory is made 0700.
    static func defaultStorePath() -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let directory = base + "/rhr"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return directory + "/rhr.sqlite"
    }

    /// `rhr [--store PATH]`: parses what the dashboard needs until the command line's own parser calls `run`.
    @MainActor
    static func main(arguments: [String]) -> Int32 {
        var storePath: String?
        var rest = arguments[...]
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "--store", let path = rest.first {
                storePath = path
                rest = rest.dropFirst()
            } else if first.hasPrefix("--store=") {
                storePath = String(first.dropFirst("--store=".count))
            } else {
                FileHandle.standardError.write(Data("rhr: unknown argument \(first)\nusage: rhr [--store PATH]\n".utf8))
                return 2
            }
        }
        let path = storePath ?? defaultStorePath()
        return run(storePath: path, source: path, summary: plainSummary)
    }
}
