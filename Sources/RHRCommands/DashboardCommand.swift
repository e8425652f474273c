import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRStore
import RHRSystem
import RHRTerminal

/// The dashboard on a store, for `rhr`, `rhr PATH...` and `rhr demo`. A `TERM` this machine's terminfo lacks is
/// driven as the nearest entry it has, said on stderr (`TerminalType`). When stdout is not a terminal, or no entry
/// can drive it (`TERM=dumb`: no cursor addressing; none near an unknown `TERM`), it prints `rhr summary` instead,
/// says why on stderr, and never starts curses. The config file sets the theme, the mouse and the first aggregation; a bad
/// line in it stops the dashboard with the file and line. The view is kept per store between runs.
enum DashboardCommand {
    /// Opens the store at `storePath` on its own connection (the dashboard lives on the main actor) and shows
    /// it. `source` says where the data lives, in words, for the header and help; `stateKey` names the store
    /// for its kept view (its path, or what stands for a temporary store); `importFailures` the files of
    /// `rhr FILE...` that could not be imported, which the dashboard names. A `temporary` store (`rhr demo`, `rhr
    /// FILE...`) follows no daemon, which could not serve it, and its help says how to go live with a real store.
    static func show(storePath: String, source: String, stateKey: String, invocation: Invocation,
                     importFailures: [ImportFailure] = [], temporary: Bool = false) throws -> Int32 {
        // "~/.local/share/rhr/rhr.sqlite" reads better than the whole home directory.
        let source = abbreviatingHome(source, environment: invocation.environment)
        // Off a terminal, the summary: on whatever thread the command runs (a test calls it off the main one).
        guard invocation.output.stdoutIsTerminal else {
            // Said only to a person at a terminal: a script that redirects both streams asked for the text.
            if invocation.output.stderrIsTerminal {
                invocation.report("standard output is not a terminal, so rhr prints the summary instead of the dashboard")
            }
            return try printSummary(of: try open(storePath, invocation), invocation)
        }
        // On a terminal, commands run on the main thread; curses wants one owner, the main actor.
        return try MainActor.assumeIsolated { () throws -> Int32 in
            let database = try open(storePath, invocation)
            let environment = invocation.environment
            let config: DashboardConfig
            do {
                config = try DashboardFiles.loadConfig(environment: environment)
            } catch {
                throw CommandFailure("\(error)")
            }
            // Said before the full screen starts, so that it stays on the shell's screen when the dashboard ends.
            let type: String
            switch CursesTerminal.choose(environment: environment) {
            case .none(let reason):
                invocation.report(reason)
                return try printSummary(of: database, invocation)
            case .standIn(let standIn, let note):
                invocation.report(note)
                type = standIn
            case .own(let own):
                type = own
            }
            guard let terminal = CursesTerminal.open(type: type, environment: environment, theme: config.theme,
                                                     mouse: config.mouse, glyphs: config.glyphs) else {
                invocation.report("curses cannot drive TERM=\(type) (it has no cursor addressing), so rhr prints the "
                                  + "summary instead of the dashboard")
                return try printSummary(of: database, invocation)
            }
            // The terminal goes back to the shell on every way out, before a failure's message is printed.
            defer { terminal.close() }
            // The store's kept view; else the config's aggregation.
            let settings = DashboardFiles.loadViewState(store: stateKey, environment: environment)
                ?? ViewSettings(aggregation: config.aggregation ?? .latest)
            // Subscribed before the first read, so no push falls between the two (when a daemon serves this store).
            let feed = temporary ? nil : DaemonFeed(socketPath: DaemonCommand.socketPath(invocation), storePath: storePath,
                                                    explicit: invocation.arguments.value("socket") != nil)
            // The recent days first, so the first frame is quick; the session reads the rest in the background.
            // One clock for the first frame and every later one: the zone rhr was run in.
            let zone = invocation.machineZone
            let data: DashboardData
            do {
                data = try DashboardLoader.loadRecent(database, source: source, today: MachineClock.today(in: zone))
                    ?? DashboardLoader.load(database, source: source)
            } catch {
                throw CommandFailure("\(error)")
            }
            // Background reads share one connection: a live update reads only the days it changed.
            let background = BackgroundStore(path: storePath, machineZone: zone)
            let session = DashboardSession.reading(background, source: source, feed: feed, today: { MachineClock.today(in: zone) },
                                                   reports: DashboardReports(environment: environment))
            let exit: DashboardExit
            do {
                exit = try session.run(on: terminal, initial: data, settings: settings, mouse: config.mouse,
                                       importFailures: importFailures, temporaryStore: temporary)
            } catch {
                throw CommandFailure("\(error)")
            }
            // The view is kept with the terminal back to normal, so a message about it can be read.
            terminal.close()
            if let final = session.finalSettings {
                do {
                    try DashboardFiles.saveViewState(final, store: stateKey, environment: environment)
                } catch {
                    // After a hang-up there is no terminal to say it on: a write there would fail.
                    if exit != .signal(.hangup) {
                        invocation.report("could not keep the view for next time: \(error)")
                    }
                }
            }
            switch exit {
            case .quit, .signal(.interrupt): return 0
            case .signal(.terminate): return 128 + SIGTERM
            case .signal(.hangup): return 128 + SIGHUP
            }
        }
    }

    /// The dashboard only reads: a store it shows is opened read-only (docs/design.md section 8).
    static func open(_ storePath: String, _ invocation: Invocation) throws -> HealthDatabase {
        try openStoreForReading(storePath, named: storePath == invocation.arguments.value("store"),
                                machineZone: invocation.machineZone, beforeMigrating: StorePath.migrationCheck(invocation))
    }

    /// What `rhr` shows where it cannot draw the dashboard: the summary of the last two weeks.
    static func printSummary(of database: HealthDatabase, _ invocation: Invocation) throws -> Int32 {
        invocation.output.write(try SummaryCommand.report(store: database, aggregation: .latest, days: 14,
                                                          today: MachineClock.today(in: invocation.machineZone),
                                                          width: SummaryCommand.width(invocation)))
        return 0
    }

    static func abbreviatingHome(_ path: String, environment: [String: String]) -> String {
        guard let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
