@testable import RHRCore
import Testing

/// The path helper every module uses instead of NSString's and URL's path-component functions, one of which traps
/// on one-character strings in this Foundation (`rhr status --store a` crashed with SIGILL).
@Suite("Path text")
struct PathTextTests {
    @Test(arguments: [
        ("", "."), ("a", "."), ("é", "."), ("/", "/"), ("//", "/"), ("a/", "."), ("x/y", "x"), ("x/y/", "x"),
        ("/a", "/"), ("/a/b/", "/a"), ("/a//b", "/a"), ("./a", "."), ("../a/b", "../a"), ("ä/ö/ü", "ä/ö"),
    ])
    func theParentIsWhatDirnameSays(path: String, parent: String) {
        #expect(PathText.parent(path) == parent, "\(path)")
    }

    @Test(arguments: [
        ("", ""), ("a", "a"), ("é", "é"), ("/", "/"), ("//", "/"), ("a/", "a"), ("x/y", "y"), ("/a/b/", "b"),
        ("Health Connect (2).zip", "Health Connect (2).zip"), ("/home/jane/Health/export.zip", "export.zip"),
    ])
    func theLastComponentIsWhatBasenameSays(path: String, last: String) {
        #expect(PathText.lastComponent(path) == last, "\(path)")
    }

    @Test(arguments: [
        ("", "a", "a"), ("a", "", "a"), ("/", "a", "/a"), ("x", "y", "x/y"), ("x/", "y", "x/y"), ("/a/b/", "c", "/a/b/c"),
        ("x", "/abs", "/abs"), ("é", "ü", "é/ü"),
    ])
    func joiningPutsOneSlashBetween(base: String, name: String, joined: String) {
        #expect(PathText.join(base, name) == joined)
    }

    @Test func theParentOfAParentEndsAtTheRootOrTheCurrentDirectory() {
        // What a walk up the directories (making a store's folders) relies on: it ends, at "/" or ".".
        for start in ["/a/b/c", "a/b/c", "é", ""] {
            var path = start
            var steps = 0
            while path != "/" && path != "." && steps < 10 {
                path = PathText.parent(path)
                steps += 1
            }
            #expect(path == (start.hasPrefix("/") ? "/" : "."), "\(start)")
        }
    }
}
