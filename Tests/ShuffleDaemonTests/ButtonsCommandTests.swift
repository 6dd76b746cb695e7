import Foundation
import ShuffleTestSupport
import Testing

/// `shufflebox buttons --script` through the real executable: the same recogniser and board map as
/// the hardware path, fed from a file.
@Suite struct ButtonsCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("buttons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func script(_ text: String) throws -> String {
        let path = folder.appendingPathComponent("script-\(UUID().uuidString).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let session = """
        # a bouncing click on play, a double, next held, the lock chord
        0 play press
        2 play release
        4 play press
        120 play release
        1000 play press
        1080 play release
        1200 play press
        1280 play release
        2000 next press
        2700 next release
        4000 play press
        4050 volume-down press
        7500 volume-down release
        7600 play release
        """

    @Test func scriptPrintsEachGestureAsJSONAndExits() throws {
        let result = try Run.shufflebox(["buttons", "--board", "rpi4", "--json", "--script", try script(Self.session)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n") == [
                #"{"t":420,"button":"play","gesture":"click","action":"play-pause"}"#,
                // A triple (stories) is waited for: the double is known a double-click window after its release.
                #"{"t":1580,"button":"play","gesture":"double","action":"next"}"#,
                #"{"t":2500,"button":"next","gesture":"hold","action":"seek-forward"}"#,
                #"{"t":2650,"button":"next","gesture":"hold","action":"seek-forward"}"#,
                #"{"t":7050,"button":"play+volume-down","gesture":"chord","action":"lock"}"#,
            ])
    }

    @Test func rawAddsEveryEdgeInOrder() throws {
        let result = try Run.shufflebox(
            [
                "buttons", "--board", "qemu", "--json", "--raw", "--script",
                try script("0 previous press\n90 previous release\n"),
            ])
        #expect(result.status == 0)
        #expect(
            result.stdout.split(separator: "\n") == [
                #"{"t":0,"button":"previous","edge":"press"}"#, #"{"t":90,"button":"previous","edge":"release"}"#,
                #"{"t":90,"button":"previous","gesture":"click","action":"previous"}"#,
            ])
    }

    @Test func textOutputNamesTheButtonGestureAndAction() throws {
        let result = try Run.shufflebox(
            [
                "buttons", "--board", "rpi5/one-button", "--script",
                try script(
                    "0 play press\n100 play release\n200 play press\n300 play release\n400 play press\n500 play release\n"
                ),
            ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("play"))
        #expect(result.stdout.contains("triple"))
        #expect(result.stdout.contains("-> previous"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test func aConfigFileWorksLikeABoard() throws {
        let config = folder.appendingPathComponent("mine.conf").path
        try "[board]\nchip = gpiochip0\n[button play]\ngpio = 5\nclick = next\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let result = try Run.shufflebox([
            "buttons", "--config", config, "--json", "--script", try script("0 play press\n50 play release\n"),
        ])
        #expect(result.stdout == #"{"t":50,"button":"play","gesture":"click","action":"next"}"# + "\n")
    }

    @Test func aBrokenScriptNamesItsLineAndExits65() throws {
        let path = try script("0 play press\n100 plya release\n")
        let result = try Run.shufflebox(["buttons", "--board", "rpi4", "--script", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path):2: unknown button 'plya'"))
    }

    @Test func aBrokenBoardFileNamesItsLineAndExits65() throws {
        let config = folder.appendingPathComponent("bad.conf").path
        try "[board]\nchip = c\n[button play]\ngpio = 5\ndebounce = 20\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let result = try Run.shufflebox(["buttons", "--config", config, "--script", try script("0 play press\n")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(config):5: bad duration '20' for debounce"))
    }

    @Test func anUnknownBoardListsTheBoards() throws {
        let result = try Run.shufflebox(["buttons", "--board", "rpi9", "--script", "/nonexistent"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no board 'rpi9'"))
        #expect(result.stderr.contains("rpi4/one-button"))
    }

    @Test func theBoardDirectoryCanBeOverridden() throws {
        let boards = folder.appendingPathComponent("boards/tiny")
        try FileManager.default.createDirectory(at: boards, withIntermediateDirectories: true)
        try "[board]\nchip = c\n[button next]\ngpio = 1\nclick = volume-up\n".write(
            toFile: boards.appendingPathComponent("board.conf").path, atomically: true, encoding: .utf8)
        let result = try Run.shufflebox(
            ["buttons", "--board", "tiny", "--json", "--script", try script("0 next press\n40 next release\n")],
            environment: ["SHUFFLEBOX_BOARD_DIR": folder.appendingPathComponent("boards").path])
        #expect(result.stdout == #"{"t":40,"button":"next","gesture":"click","action":"volume-up"}"# + "\n")
    }
}
