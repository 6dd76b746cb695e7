import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Configuration text as an editor on another system, or a damaged card, may leave it: every problem names
/// the file, the line and the key.
@Suite struct ConfigHostileTextTests {
    @Test func crlfLineEndsAreLinesLikeAnyOther() throws {
        let config = try ConfigParser.parse("device = hw:1,0\r\nvolume = 5\r\n\r\nmax-volume = 12\r\n", file: "w.conf")
        #expect(config.device == "hw:1,0")
        #expect(config.volume == 5)
        #expect(config.maxVolume == 12)
        #expect(
            throws: ConfigError(
                file: "w.conf", line: 2, message: "'volume' needs a whole number from 0 to 1000, not 'x'")
        ) {
            _ = try ConfigParser.parse("device = a\r\nvolume = x\r\n", file: "w.conf")
        }
        #expect(ConfigParser.line(settingKey: "board", in: "volume = 1\r\nboard = rpi4\r\n") == 2)
    }

    @Test func aBoardFileWithCRLFLineEndsReadsLikeItsLFTwin() throws {
        let text = PackagePaths.root.appendingPathComponent("board/qemu/board.conf")
        let lf = try String(contentsOf: text, encoding: .utf8)
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        let fromCRLF = try BoardFileParser.parse(crlf, file: "qemu.conf")
        let fromLF = try BoardFileParser.parse(lf, file: "qemu.conf")
        #expect(fromCRLF == fromLF)
        #expect(fromLF.buttons.count == 7)  // the five buttons, the power button and the battery's line
    }

    @Test func aNulByteOrControlCharacterNamesTheLineAndKey() {
        #expect(
            throws: ConfigError(
                file: "n.conf", line: 2, message: "'state-dir' holds a NUL byte; the value must be plain text")
        ) {
            _ = try ConfigParser.parse("volume = 1\nstate-dir = /var/lib/a\u{0}b\n", file: "n.conf")
        }
        #expect(
            throws: ConfigError(
                file: "n.conf", line: 1,
                message: "'device' holds a control character (U+001B); the value must be plain text")
        ) {
            _ = try ConfigParser.parse("device = hw\u{1B}[2J\n", file: "n.conf")
        }
        #expect(
            throws: ConfigError(
                file: "command line", line: nil,
                message: "--socket: 'socket' holds a NUL byte; the value must be plain text")
        ) {
            _ = try ConfigParser.parse(
                "", file: "n.conf", overrides: [ConfigOverride(key: "socket", value: "/run/a\u{0}")])
        }
    }

    @Test(arguments: ["rpi4", "rpi4/one-button", "rpi-zero2w", "qemu", "my_board/v2"])
    func aBoardNameIsAccepted(_ name: String) throws {
        let config = try ConfigParser.parse("board = \(name)\n", file: "b.conf")
        #expect(config.board == name)
    }

    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "rpi4/../x", "a/b/c", "rpi4/", "./rpi4", "rpi 4", "rpi4\\x"])
    func aBoardPathIsNotABoardName(_ value: String) {
        #expect(throws: ConfigError.self) { _ = try ConfigParser.parse("board = \(value)\n", file: "b.conf") }
    }

    @Test func aBoardFileIsGivenByAbsolutePathAndNotBesideABoardName() throws {
        let config = try ConfigParser.parse("board-file = /etc/shufflebox/my.conf\n", file: "b.conf")
        #expect(config.boardFile == "/etc/shufflebox/my.conf")
        #expect(throws: ConfigError.self) { _ = try ConfigParser.parse("board-file = my.conf\n", file: "b.conf") }
        #expect(
            throws: ConfigError(
                file: "b.conf", line: 2,
                message: "give either 'board' (a name from board/) or 'board-file' (a path), not both")
        ) {
            _ = try ConfigParser.parse("board = rpi4\nboard-file = /x.conf\n", file: "b.conf")
        }
    }
}
