import Foundation
@testable import RHRCommands
import RHRTestSupport
import Testing

/// The small parts the commands are made of.
@Suite("Command parts")
struct CommandPartsTests {
    @Test func theProgressBarSaysHowFarHowFastAndHowLong() {
        #expect(ProgressBar.text(label: "export.zip", done: 256_000_000, total: 512_000_000, elapsed: 1)
            == "export.zip [██████████░░░░░░░░░░]  50%  256 MB of 512 MB  256 MB/s  1 s left")
        // In the first moments there is no rate to tell yet; under 10 MB, one decimal.
        #expect(ProgressBar.text(label: "x.xml", done: 1_500_000, total: 3_000_000, elapsed: 0.1)
            == "x.xml [██████████░░░░░░░░░░]  50%  1.5 MB of 3.0 MB")
        // A pipe's size nobody knows: how much was read, and how fast.
        #expect(ProgressBar.text(label: "standard input", done: 158_000_000, total: 0, elapsed: 2)
            == "standard input  158 MB read  79 MB/s")
    }

    @Test func theDefaultStoreFollowsXDGDataHomeWhenItIsAbsolute() {
        #expect(StorePath.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/jane"]) == "/data/rhr/rhr.sqlite")
        #expect(StorePath.defaultPath(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/jane"])
            == "/home/jane/.local/share/rhr/rhr.sqlite")
        #expect(StorePath.defaultPath(environment: ["HOME": "/home/jane"]) == "/home/jane/.local/share/rhr/rhr.sqlite")
    }

    @Test func theStoresDirectoriesAreMadePrivate() throws {
        let directory = try TemporaryDirectory()
        try StorePath.preparePrivateDirectory(for: directory.file("a/b/rhr.sqlite"))
        for made in ["a", "a/b"] {
            #expect(FileMode.permissions(directory.file(made)) == 0o700, "\(made)")
        }
    }

    @Test(arguments: ["a", "é", "ab"])
    func aStoreNamedInTheCurrentDirectoryNeedsNoDirectoryMade(name: String) throws {
        // Its directory is "." (which exists): nothing is made, and nothing traps on a one-character name.
        try StorePath.preparePrivateDirectory(for: name)
    }

    @Test func theHomeIsAbbreviatedOnlyAsAWholeDirectory() {
        let home = ["HOME": "/home/jane"]
        #expect(DashboardCommand.abbreviatingHome("/home/jane/.local/share/rhr/rhr.sqlite", environment: home)
            == "~/.local/share/rhr/rhr.sqlite")
        #expect(DashboardCommand.abbreviatingHome("/home/janet/rhr.sqlite", environment: home) == "/home/janet/rhr.sqlite")
        #expect(DashboardCommand.abbreviatingHome("/x/rhr.sqlite", environment: ["HOME": "/"]) == "/x/rhr.sqlite")
    }

    @Test func theMachineZoneIsTheOneTZNames() {
        func zone(_ environment: [String: String]) -> TimeZone {
            Invocation(arguments: ParsedArguments(), environment: environment, output: CapturedOutput().output()).machineZone
        }
        #expect(zone(["TZ": "Asia/Tokyo"]).identifier == "Asia/Tokyo")
        #expect(zone(["TZ": ":Europe/Berlin"]).identifier == "Europe/Berlin")
        // Not a zone's name (a POSIX rule, or nothing): the process's zone, which the C library read from TZ.
        #expect(zone(["TZ": "CET-1CEST"]) == .current)
        #expect(zone([:]) == .current)
    }
}
