import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// `scripts/install` into a temporary prefix and out again, with the binary this test run was built with
/// (`RHR_INSTALL_BINARY`), so no release build is needed here.
@Suite("scripts/install")
struct InstallScriptTests {
    let rhr: RHRSandbox

    init() throws { rhr = try RHRSandbox() }

    /// The files an install puts under a prefix.
    static let installed = ["bin/rhr", "share/man/man1/rhr.1", "share/bash-completion/completions/rhr",
                            "share/zsh/site-functions/_rhr", "share/fish/vendor_completions.d/rhr.fish",
                            "share/systemd/user/rhr.service", "share/rhr/samples/batches/healthkit-iphone.jsonl",
                            "share/rhr/samples/batches/healthconnect-pixel.jsonl", "share/rhr/installed"]

    func install(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> SubprocessResult {
        var environment = rhr.environment
        environment["RHR_INSTALL_BINARY"] = try SourceTree.builtProduct("rhr")
        for (key, value) in extra { environment[key] = value }
        return try Subprocess.run(SourceTree.root + "/scripts/install", arguments, environment: environment, directory: rhr.home)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func installsEverythingIntoAPrefixAndUninstallsExactlyThat() throws {
        let prefix = rhr.home + "/opt/rhr prefix"
        // What was there before stays: a program of its own, and a man page in a folder rhr also uses.
        let other = try rhr.write("opt/rhr prefix/bin/other", "#!/bin/sh\n")
        let otherPage = try rhr.write("opt/rhr prefix/share/man/man1/other.1", ".TH OTHER 1\n")

        let installed = try install([prefix])
        #expect(installed.status == 0, "\(installed.stderr)")
        for file in Self.installed { #expect(exists(prefix + "/" + file), "\(file)") }
        let bin = prefix + "/bin/rhr"
        #expect(FileManager.default.isExecutableFile(atPath: bin))
        #expect(try Subprocess.run(bin, ["--version"]).stdout == (try rhr.run(["--version"])).stdout)
        #expect(try text(prefix + "/share/man/man1/rhr.1") == (try text(SourceTree.root + "/docs/man/rhr.1")))
        for (shell, file) in [("bash", "share/bash-completion/completions/rhr"), ("zsh", "share/zsh/site-functions/_rhr"),
                              ("fish", "share/fish/vendor_completions.d/rhr.fish")] {
            #expect(try text(prefix + "/" + file) == (try rhr.run(["completions", shell])).stdout, "\(shell)")
        }
        // The unit runs the binary just installed, quoted for the space in its path.
        let unit = try text(prefix + "/share/systemd/user/rhr.service")
        #expect(unit.contains("\nExecStart=\"\(bin)\" daemon\n"), "\(unit)")
        #expect(!unit.contains(".local/bin/rhr"))
        // The installed completion loads from where it was put, and the page is found under the prefix.
        let loaded = try Subprocess.run("/bin/bash", ["-c", "source '\(prefix)/share/bash-completion/completions/rhr' && complete -p rhr"])
        #expect(loaded.stdout == "complete -F _rhr rhr\n")
        if let man = Subprocess.which("man") {
            let found = try Subprocess.run(man, ["-w", "rhr"], environment: ["MANPATH": prefix + "/share/man", "PATH": "/usr/bin:/bin"])
            #expect(found.stdout == prefix + "/share/man/man1/rhr.1\n", "\(found.stderr)")
        }
        // Installing again changes nothing that uninstalling needs.
        let manifest = try text(prefix + "/share/rhr/installed")
        #expect(try install([prefix]).status == 0)
        #expect(try text(prefix + "/share/rhr/installed") == manifest)

        let removed = try install(["--uninstall", prefix])
        #expect(removed.status == 0, "\(removed.stderr)")
        for file in Self.installed { #expect(!exists(prefix + "/" + file), "\(file)") }
        for folder in ["share/rhr", "share/zsh", "share/fish", "share/bash-completion", "share/systemd"] {
            #expect(!exists(prefix + "/" + folder), "\(folder) was made by the install and is empty again")
        }
        #expect(exists(other) && exists(otherPage))
        let again = try install(["--uninstall", prefix])
        #expect(again.status == 1 && again.stderr.contains("nothing installed by scripts/install in \(prefix)"), "\(again.stderr)")
    }

    @Test func theDefaultPrefixIsTheUsersOwnAndTheStoreBesideItIsKept() throws {
        // Without XDG_DATA_HOME the store is ~/.local/share/rhr/rhr.sqlite: in the folder the samples go to.
        let home = rhr.home
        let installed = try install([], environment: ["XDG_DATA_HOME": nil])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(FileMode.permissions(home + "/.local/share/rhr") == 0o700, "the store's folder is private")
        let bin = home + "/.local/bin/rhr"
        let environment = rhr.environment.filter { $0.key != "XDG_DATA_HOME" }
        let imported = try Subprocess.run(bin, ["import", SourceTree.samples + "/batches/healthconnect-pixel.jsonl"],
                                          environment: environment, directory: home)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(exists(home + "/.local/share/rhr/rhr.sqlite"))
        // The demo of the installed program finds the installed samples.
        let demo = try Subprocess.run(bin, ["demo"], environment: environment, directory: home)
        #expect(demo.status == 0 && demo.stdout.contains("HC Oura"), "\(demo.stderr)")

        let removed = try install(["--uninstall"], environment: ["XDG_DATA_HOME": nil])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!exists(bin) && !exists(home + "/.local/share/rhr/samples"))
        #expect(exists(home + "/.local/share/rhr/rhr.sqlite"), "the store is never removed")
        #expect(removed.stdout.contains("kept \(home)/.local/share/rhr/ (not empty)"), "\(removed.stdout)")
    }
}
