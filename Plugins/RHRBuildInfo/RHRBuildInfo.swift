// Names rhr's build at build time: the version in VERSION and the commit checked out (docs/design.md section 5).
import Foundation
import PackagePlugin

/// Runs `rhr-build-info` before RHRCore compiles, to write `RHRBuildInfo.swift` (the version and the commit) from the
/// repository's `VERSION` and its git checkout. The command runs again whenever one of the files it reads changes: the
/// version file, git's `HEAD`, the branch it names and `packed-refs`, so a new commit makes a new build name. Only the
/// toolchain: git's files are read, the `git` program is not needed. Without a checkout (a tarball), the build has no
/// commit and says so ("unknown build").
@main
struct RHRBuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "RHRBuildInfo.swift")
        var inputs = [root.appending(path: "VERSION")]
        var arguments = [root.appending(path: "VERSION").path, output.path]
        if let git = GitDirectory(root: root) {
            arguments += [git.directory.path, git.common.path]
            inputs += git.filesNamingTheCommit
        }
        return [.buildCommand(displayName: "Naming rhr's build (VERSION and commit)",
                              executable: try context.tool(named: "rhr-build-info").url,
                              arguments: arguments, inputFiles: inputs, outputFiles: [output])]
    }
}

/// Where git keeps a checkout's `HEAD` (`directory`: `.git`, or the folder a worktree's `.git` file names) and its refs
/// (`common`: the same, or the main checkout's for a worktree).
struct GitDirectory {
    var directory: URL
    var common: URL

    init?(root: URL) {
        let dotGit = root.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            directory = dotGit
        } else {
            // A worktree's `.git` is a file: "gitdir: PATH".
            guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") else { return nil }
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            directory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appending(path: path)
        }
        common = directory
        if let text = try? String(contentsOf: directory.appending(path: "commondir"), encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            common = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appending(path: path)).standardizedFileURL
        }
    }

    /// `HEAD`, the branch file it names (which moves at each commit) and `packed-refs`, those that are there: a missing
    /// input stops the build, and the plugin is asked again at every build, so one made later is seen then.
    var filesNamingTheCommit: [URL] {
        var files = [directory.appending(path: "HEAD"), common.appending(path: "packed-refs")]
        if let head = try? String(contentsOf: directory.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref:") {
            files.append(common.appending(path: head.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
