import Foundation
import ShuffleTestSupport
import Testing

/// `run --check-config` on configuration files that are not what they should be: it answers at once (a FIFO
/// never hangs it), names the file, line and key, and passes exactly when `run` starts.
@Suite struct ConfigFileTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory(prefix: "config-file") }

    /// `run ARGUMENTS`, killed after 20 s so that a hang fails the test instead of stopping the run.
    func run(_ arguments: [String]) throws -> Run.Result {
        try Run.program("/usr/bin/timeout", ["-s", "KILL", "20", PackagePaths.shufflebox.path, "run"] + arguments)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appending(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFIFOAFolderAndAHugeFileAreEachNamedForWhatTheyAre() throws {
        let fifo = directory.appending("fifo.conf").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = directory.appending("folder.conf").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let huge = try write("huge.conf", String(repeating: "# comment\n", count: 120_000))
        for (path, expected) in [
            (fifo, "\(fifo): is not a regular file (a fifo)"), (folder, "\(folder): is a folder"),
            (huge, "\(huge): is 1200000 bytes; a configuration file holds at most 1048576 bytes"),
        ] {
            let result = try run(["--config", path, "--check-config"])
            #expect(result.status == 65, "\(path): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    @Test func aBoardPathIsRefusedAndAMissingBoardFailsTheCheckAsItFailsRun() throws {
        let config = try write("b.conf", "volume = 2\nboard = ../../etc/passwd\n")
        let path = try run(["--config", config, "--check-config"])
        #expect(path.status == 65)
        #expect(path.stderr.contains("\(config):2: 'board' needs a board name from board/"), "\(path.stderr)")
        #expect(!path.stderr.contains("root:"), "nothing of /etc/passwd is shown")
        let plain = try write("p.conf", "volume = 2\n")
        let flag = try run(["--config", plain, "--check-config", "--board", "../../etc/passwd"])
        #expect(flag.stderr.contains("command line: --board: 'board' needs a board name"), "\(flag.stderr)")

        let missing = try write("m.conf", "volume = 2\nboard = rpi9\n")
        let state = directory.appending("state").path
        let check = try run(["--config", missing, "--check-config", "--state-dir", state])
        #expect(check.status == 65)
        #expect(check.stderr.contains("\(missing):2: 'board': board 'rpi9': no board 'rpi9'"), "\(check.stderr)")
        let start = try run(["--config", missing, "--state-dir", state, "--socket", directory.appending("s").path])
        #expect(start.status == 65, "run refuses what the check refuses: \(start.stderr)")
        #expect(start.stderr.contains("'board': board 'rpi9'"))
        #expect(!FileManager.default.fileExists(atPath: state), "neither made the state folder")
    }

    @Test func aStateFolderThatCannotBeMadeFailsTheCheckAndLeavesNothingBehind() throws {
        let config = try write("s.conf", "volume = 2\nstate-dir = /proc/shufflebox-nope\n")
        let result = try run(["--config", config, "--check-config"])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("\(config):2: 'state-dir': /proc/shufflebox-nope: cannot be made"),
            "\(result.stderr)")
        let good = directory.appending("a/b/state").path
        let ok = try run(["--check-config", "--state-dir", good, "--socket", directory.appending("a/s").path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appending("a").path), "the check made no folder")
    }

    @Test func aBoardFileGivenExplicitlyIsRead() throws {
        let board = PackagePaths.root.appendingPathComponent("board/qemu/board.conf").path
        let result = try run([
            "--check-config", "--board-file", board, "--state-dir", directory.appending("st").path,
            "--socket", directory.appending("st/s").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
