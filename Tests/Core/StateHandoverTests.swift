import Glibc
import LodestoneCore
import Testing

/// A state folder left by root's runs, handed to the service's account: root's folders and
/// files change hands; a link, what it points at and a file with another name do not.
struct StateHandoverTests {
    @Test func rootsFilesChangeHandsAndNothingElse() throws {
        guard geteuid() == 0 else {
            Issue.record("not running as root: handing files to another account cannot be tried")
            return
        }
        let base = "/tmp/lodestone-handover-\(getpid())"
        removeTree(base)
        defer { removeTree(base) }
        let state = base + "/state", outside = base + "/outside"
        try #require(makeDirectories(state + "/tracks") && makeDirectories(outside))
        for path in [state + "/alerts.rec", state + "/tracks/1.track", outside + "/secret", outside + "/linked"] {
            try #require(writeFileAtomically(path, Array("x".utf8)))
        }
        try #require(symlink(outside + "/secret", state + "/a-link") == 0)
        try #require(symlink(outside, state + "/a-folder-link") == 0)
        try #require(link(outside + "/linked", state + "/hard") == 0)
        let nobody: uid_t = 65534
        let outcome = StateHandover.give(state, to: nobody, group: nobody)
        func owner(_ path: String) -> uid_t {
            var status = stat()
            return lstat(path, &status) == 0 ? status.st_uid : 99_999
        }
        for path in [state, state + "/tracks", state + "/alerts.rec", state + "/tracks/1.track"] {
            #expect(owner(path) == nobody, "\(path) was handed over")
        }
        for path in [state + "/a-link", state + "/a-folder-link", outside + "/secret", outside, state + "/hard", outside + "/linked"] {
            #expect(owner(path) == 0, "\(path) stays root's")
        }
        #expect(outcome.changed == 4)
        #expect(outcome.leftAlone.contains { $0.contains("/hard") && $0.contains("hard link") })
        // A link given as the folder itself is refused, not followed.
        #expect(StateHandover.give(state + "/a-folder-link", to: nobody, group: nobody).changed == 0)
        #expect(owner(outside) == 0)
    }
}
