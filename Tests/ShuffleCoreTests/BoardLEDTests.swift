import Foundation
import ShuffleCore
import Testing

/// The status light's settings: the `[led]` section of board files and the daemon's `led` key.
@Suite struct BoardLEDTests {
    static let header = "[board]\nchip = gpiochip0\n[button play]\ngpio = 1\n"

    @Test func theLedSectionNamesTheLedItsPolarityAndItsPin() throws {
        let board = try BoardFileParser.parse(
            Self.header + "[led]\nname = shufflebox ACT   # first found wins\nactive-low = yes\ngpio = 25\npin = 22\n",
            file: "f")
        let expected = BoardLED(
            settings: LEDSettings(names: ["shufflebox", "ACT"], activeLow: true), line: 25, headerPin: 22)
        #expect(board.led == expected)
        let plain = try BoardFileParser.parse(Self.header + "[led]\nname = ACT\n", file: "f")
        #expect(plain.led?.settings == LEDSettings(names: ["ACT"], activeLow: false))
        let none = try BoardFileParser.parse(Self.header, file: "f")
        #expect(none.led == nil)
    }

    @Test(arguments: [
        (header + "[led]\nactive-low = no\n", 5, "[led] needs 'name = NAME'"),
        (header + "[led]\nname = ACT\nactive-low = maybe\n", 7, "active-low must be yes or no"),
        (header + "[led]\nname = ../../x\n", 6, "bad LED name '../../x'"),
        (header + "[led]\nname = ACT\ncolour = green\n", 7, "unknown setting 'colour' in [led]"),
        (header + "[led]\nname = ACT\npin = 41\n", 7, "bad pin '41'"),
        (header + "[led green]\nname = ACT\n", 5, "unknown section"),
        (header + "[led]\nname = ACT\n[led]\nname = led0\n", 7, "[led] appears twice"),
    ])
    func brokenLedSectionsNameTheLineAndTheProblem(text: String, line: Int, problem: String) {
        var caught: BoardFileError?
        do {
            _ = try BoardFileParser.parse(text, file: "board/broken.conf")
        } catch {
            caught = error
        }
        #expect(caught?.line == line, "\(String(describing: caught))")
        #expect(caught?.problem.contains(problem) == true, "\(String(describing: caught))")
    }

    /// Every Raspberry Pi board shows its status on an LED of the user's own (labelled shufflebox) or else
    /// the Pi's green activity LED; the qemu boards (x86 and arm64) on the LED their image test creates.
    @Test func everyBoardFileNamesItsLed() throws {
        for path in BoardFileParserTests.boardFiles {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let board = try BoardFileParser.parse(text, file: path)
            let led = try #require(board.led, "\(path) has no [led]")
            if path.contains("/qemu/") || path.contains("/qemu-arm64/") {
                #expect(led.settings.names == ["shufflebox"], "\(path)")
            } else {
                #expect(led.settings.names == ["shufflebox", "ACT", "led0"], "\(path)")
                #expect(!led.settings.activeLow, "\(path)")
            }
        }
    }

    @Test func theDaemonsLedKeyTakesANameAPathOrOff() throws {
        let config = try ConfigParser.parse("led = ACT\n", file: "c")
        #expect(config.led == "ACT")
        let flag = try ConfigParser.applyOverrides([ConfigOverride(key: "led", value: "off")], to: config)
        #expect(flag.led == "off")
        let empty = try ConfigParser.parse("", file: "c")
        #expect(empty.led == nil)
        for bad in ["led = my led", "led = ../../etc"] {
            var caught: ConfigError?
            do { _ = try ConfigParser.parse(bad, file: "c") } catch { caught = error }
            #expect(caught?.message.contains("'led' needs an LED name under /sys/class/leds") == true, "\(bad)")
        }
    }
}
