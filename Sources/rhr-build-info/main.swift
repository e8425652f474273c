// Writes RHRBuildInfo.swift for the RHRBuildInfo plugin: rhr's version from VERSION and the commit git checked out.
import Foundation

/// `rhr-build-info VERSION-FILE OUTPUT [GIT-DIR GIT-COMMON-DIR]`: the version is the first line of VERSION-FILE; the
/// commit is what `HEAD` names, read from git's files (a branch's file, else `packed-refs`, or a detached hash), its
/// first 12 digits. Without a git directory, or when it names no commit, the build is unknown.
let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: rhr-build-info VERSION-FILE OUTPUT [GIT-DIR GIT-COMMON-DIR]\n".utf8))
    exit(2)
}

func read(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

guard let version = read(arguments[1])?.split(separator: "\n").first.map(String.init), !version.isEmpty,
      version.allSatisfy({ $0.isNumber || $0.isLetter || ".-+".contains($0) }) else {
    FileHandle.standardError.write(Data("rhr-build-info: \(arguments[1]): no version in it (a line like 0.1.0)\n".utf8))
    exit(1)
}

/// The commit `HEAD` names: its own hash when detached, else its branch's, from the branch's file or `packed-refs`.
func commit(gitDirectory: String, common: String) -> String? {
    guard let head = read(gitDirectory + "/HEAD") else { return nil }
    guard head.hasPrefix("ref:") else { return head }
    let ref = head.dropFirst(4).trimmingCharacters(in: .whitespaces)
    if let hash = read(common + "/" + ref) ?? read(gitDirectory + "/" + ref) { return hash }
    for line in (read(common + "/packed-refs") ?? "").split(separator: "\n") where line.hasSuffix(" " + ref) {
        return String(line.prefix { $0 != " " })
    }
    return nil
}

var hash: String?
if arguments.count == 5, let found = commit(gitDirectory: arguments[3], common: arguments[4]),
   found.count >= 12, found.allSatisfy(\.isHexDigit) {
    hash = String(found.prefix(12)).lowercased()
}
let text = """
    // Made at build time by the RHRBuildInfo plugin from VERSION and the commit checked out: never edit it.
    extension RHRVersion {
        /// The version in the repository's VERSION file.
        static let number = "\(version)"
        /// The first 12 digits of the commit this build was made from; nil when it was made without git's files.
        static let commit: String? = \(hash.map { "\"\($0)\"" } ?? "nil")
    }

    """
let output = arguments[2]
// Written only when it changes, so RHRCore is not compiled again for nothing.
if read(output).map({ $0 + "\n" }) != text {
    do {
        try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("rhr-build-info: \(output): cannot write it: \(error)\n".utf8))
        exit(1)
    }
}
