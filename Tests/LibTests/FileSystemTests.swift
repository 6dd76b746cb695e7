import Foundation
import LibLinux
import ShuffleTestSupport
import Testing

/// LibLinux's `FileSystem` and `Environment` against real files, and against Foundation where it did
/// the same job before.
@Suite struct FileSystemTests {
    @Test func parentFolderMatchesDeletingLastPathComponent() {
        for path in ["/run/shufflebox/socket", "/socket", "socket", "a/b", "/a/b/", "/", "", "//x"] {
            #expect(FileSystem.parentFolder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }

    @Test func createFoldersMakesEveryMissingParentAndAcceptsAnExistingFolder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let deep = dir.path + "/a/b c/ü/"
        try FileSystem.createFolders(deep)
        #expect(FileSystem.isFolder(deep))
        try FileSystem.createFolders(deep)  // again: nothing to do
        #expect(FileSystem.names(inFolder: dir.path + "/a") == ["b c"])
    }

    @Test func createFoldersRefusesAFileInTheWayAndSaysWhere() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: LinuxError(function: "mkdir \(file)", code: EEXIST)) {
            try FileSystem.createFolders(file + "/below")
        }
        #expect(throws: LinuxError(function: "mkdir \(file)", code: EEXIST)) { try FileSystem.createFolders(file) }
    }

    @Test func namesListsEverythingButDotAndDotDotAndNilForAMissingFolder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for name in ["b", "a.conf", ".hidden", "Ωμέγα"] {
            try Data().write(to: URL(fileURLWithPath: dir.path + "/" + name))
        }
        #expect(FileSystem.names(inFolder: dir.path)?.sorted() == [".hidden", "a.conf", "b", "Ωμέγα"])
        #expect(FileSystem.names(inFolder: dir.path + "/none") == nil)
        #expect(FileSystem.exists(dir.path + "/b") && !FileSystem.isFolder(dir.path + "/b"))
        #expect(!FileSystem.exists(dir.path + "/none"))
    }

    @Test func contentsReadsWholeFilesUpToTheLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/big"
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try FileSystem.contents(of: path) == bytes)
        #expect(throws: LinuxError(function: "read \(path)", code: EFBIG)) {
            try FileSystem.contents(of: path, limit: 99_999)
        }
        #expect(throws: LinuxError(function: "open \(dir.path)/none", code: ENOENT)) {
            try FileSystem.contents(of: dir.path + "/none")
        }
        #expect(try FileSystem.contents(of: "/proc/self/status").count > 100, "a file stat calls empty")
    }

    @Test func linkTargetAndEnvironmentMatchFoundation() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: "../x y")
        #expect(FileSystem.linkTarget(dir.path + "/link") == "../x y")
        #expect(FileSystem.linkTarget(dir.path) == nil)
        #expect(Environment.all == ProcessInfo.processInfo.environment)
        #expect(Environment.value("PATH") == ProcessInfo.processInfo.environment["PATH"])
        #expect(Environment.value("SHUFFLEBOX_SURELY_UNSET_\(getpid())") == nil)
        #expect(Environment.userHome?.hasPrefix("/") == true)
    }
}
