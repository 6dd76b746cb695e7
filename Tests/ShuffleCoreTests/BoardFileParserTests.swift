import FoundationEssentials
import ShuffleCore
import Testing

/// The board files in `board/` and the errors of broken ones.
@Suite struct BoardFileParserTests {
    /// Every `*.conf` under `board/`, relative to the package root.
    static let boardFiles: [String] = {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files: [String] = []
        let boardDir = root.appending(path: "board")
        // board/common holds files for every board (the daemon's shufflebox.conf), not a board.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: boardDir.path)) ?? [] where name != "common" {
            let dir = boardDir.appending(path: name)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            where file.hasSuffix(".conf") {
                files.append(dir.appending(path: file).path)
            }
        }
        return files.sorted()
    }()

    /// The Raspberry Pi 40-pin header: physical pin → BCM GPIO number.
    static let piHeader: [Int: Int] = [
        3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9, 22: 25,
        23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
    ]

    @Test func everyBoardHasItsFilesAndTheyAllParse() throws {
        let names = Set(Self.boardFiles.map { URL(filePath: $0).deletingLastPathComponent().lastPathComponent })
        #expect(names.isSuperset(of: ["rpi-zero2w", "rpi3", "rpi4", "rpi5", "qemu"]))
        #expect(Self.boardFiles.count >= 10)
        for path in Self.boardFiles {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let board = try BoardFileParser.parse(text, file: path)
            #expect(board.settings(for: .play) != nil, "\(path)")
            if path.hasSuffix("one-button.conf") {
                #expect(board.buttons.count == 1)
                #expect(
                    board.settings(for: .play)?.actions == [
                        .click: .playPause, .double: .next, .triple: .previous, .long: .nextStory,
                    ])
            } else {
                // The power button is GPIO3's, which wakes a halted Pi 3, 4 or Zero 2 W; the Pi 5 has its own
                // switch. The battery's line ships commented out on the Pis (below: it parses once its '#'s are
                // taken out). The emulated boards (one file) have both, for the image test to switch them off.
                let gpio3Boards = ["/rpi3/", "/rpi4/", "/rpi-zero2w/"]
                let wakesOnGPIO3 = path.hasSuffix("/board.conf") && gpio3Boards.contains { path.contains($0) }
                let switchedOffByTest = path.hasSuffix("/qemu/board.conf") || path.hasSuffix("/qemu-arm64/board.conf")
                let expected = ButtonName.allCases.filter {
                    switchedOffByTest || ($0 != .battery && ($0 != .power || wakesOnGPIO3))
                }
                #expect(board.buttons.map(\.name) == expected, "\(path)")
                if wakesOnGPIO3 {
                    let power = board.buttons.first { $0.name == .power }
                    #expect(power?.line == 3, "\(path)")
                    #expect(power?.actions == [.long: .powerOff], "\(path)")
                }
                #expect(board.settings(for: .play)?.actions[.click] == .playPause)
                #expect(board.settings(for: .play)?.actions[.double] == .next)
                #expect(board.settings(for: .play)?.actions[.triple] == .stories)
                #expect(board.settings(for: .next)?.actions == [.click: .next, .hold: .seekForward])
                #expect(board.settings(for: .previous)?.actions == [.click: .previous, .hold: .seekBack])
                // A double click of the volume buttons changes station (the stick's shufflebox.txt).
                #expect(
                    board.settings(for: .volumeUp)?.actions == [
                        .click: .volumeUp, .hold: .volumeUp, .double: .nextStation,
                    ])
                #expect(
                    board.settings(for: .volumeDown)?.actions == [
                        .click: .volumeDown, .hold: .volumeDown, .double: .previousStation,
                    ])
                #expect(board.chords.map(\.action) == [.lock, .sleep, .startOver])
                // The profile for children: play + volume-down held 3 s lock, next + previous held 2 s sleep,
                // play + previous held 2 s start the story over.
                #expect(
                    board.chords.map(\.buttons) == [[.play, .volumeDown], [.next, .previous], [.play, .previous]],
                    "\(path)")
                #expect(board.chords.map(\.hold) == [.seconds(3), .seconds(2), .seconds(2)], "\(path)")
            }
        }
    }

    /// Each Pi board file's battery section, its '#'s taken out as its comment says: the line is GPIO4 (header
    /// pin 7, free on every board) and a long low level is `battery-low`.
    @Test(arguments: ["rpi3", "rpi4", "rpi-zero2w", "rpi5"])
    func theBatteryLineParsesOnceUncommented(_ name: String) throws {
        let path = try #require(Self.boardFiles.first { $0.hasSuffix("/\(name)/board.conf") })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "#[button battery]"))
        var uncommented = lines
        for index in start..<(start + 4) { uncommented[index].removeFirst() }
        let board = try BoardFileParser.parse(uncommented.joined(separator: "\n"), file: path)
        let battery = try #require(board.buttons.first { $0.name == .battery })
        #expect(battery.line == 4 && Self.piHeader[7] == 4)
        #expect(battery.actions == [.long: .batteryLow])
    }

    @Test(arguments: [
        ("rpi-zero2w", "pinctrl-bcm2835"), ("rpi3", "pinctrl-bcm2835"), ("rpi4", "pinctrl-bcm2711"),
        ("rpi5", "pinctrl-rp1"),
    ])
    func raspberryPiPinsMatchTheHeaderAndTheChipLabel(board: String, chip: String) throws {
        for path in Self.boardFiles where path.contains("/\(board)/") {
            let config = try BoardFileParser.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
            if config.source == .gpio { #expect(config.chip == chip) }
            for button in config.buttons {
                let pin = try #require(button.headerPin, "\(path): \(button.name) has no header pin")
                if let line = button.line {
                    #expect(Self.piHeader[pin] == line, "\(path): pin \(pin) is not GPIO\(line)")
                }
                #expect(button.activeLow && button.bias == .pullUp)
            }
        }
    }

    @Test func settingsUnderBoardAreDefaultsAndButtonsOverrideThem() throws {
        let text = """
            [board]
            chip = gpiochip0
            debounce = 10ms
            long-press = 1.5s
            [button play]
            gpio = 4
            debounce = 30ms
            click = play-pause   # inline comment
            [button next]
            gpio = 5
            active-low = no
            bias = disabled
            """
        let board = try BoardFileParser.parse(text, file: "x.conf")
        #expect(board.settings(for: .play)?.timing.debounce == .milliseconds(30))
        #expect(board.settings(for: .play)?.timing.longPress == .milliseconds(1500))
        #expect(board.settings(for: .next)?.timing.debounce == .milliseconds(10))
        #expect(board.settings(for: .next)?.activeLow == false)
        #expect(board.settings(for: .next)?.bias == .disabled)
        #expect(board.settings(for: .play)?.actions == [.click: .playPause])
    }

    static let header = "[board]\nchip = gpiochip0\n"

    @Test(arguments: [
        (header + "[button vol-up]\ngpio = 3\n", 3, "unknown button 'vol-up'"),
        (
            header + "[button play]\ngpio = 17\n[button next]\ngpio = 17\n", 6,
            "GPIO line 17 is used twice: by play and by next"
        ),
        (
            header + "[button play]\ngpio = 17\npin = 11\n[button next]\ngpio = 27\npin = 11\n", 8,
            "header pin 11 is used twice"
        ),
        (header + "[button play]\ngpio = 1\ndebounce = 20\n", 5, "bad duration '20' for debounce"),
        (header + "[button play]\ngpio = 1\ndebounce = fast\n", 5, "bad duration 'fast'"),
        (header + "[button play]\ngpio = 1\ndebounce = 5s\n", 5, "must be between 0ms and 200ms"),
        (header + "[button play]\ngpio = 1\nclick = skip\n", 5, "unknown action 'skip'"),
        (header + "[button play]\ngpio = 1\nclick = next\nclick = previous\n", 6, "'click' is set twice"),
        (
            header + "[button play]\ngpio = 1\n[button play]\ngpio = 2\n", 5,
            "[button play] appears twice (first on line 3)"
        ),
        (header + "[button play]\ngpio = x\n", 4, "bad gpio 'x'"),
        (header + "[button play]\ngpio = 1\ncolour = red\n", 5, "unknown setting 'colour'"),
        (header + "[button play]\ngpio = 1\nlong = speak\nhold = next\n", 5, "both 'long' and 'hold'"),
        (header + "[button play]\n", 3, "button play has no 'gpio = LINE'"),
        (
            header + "[button play]\ngpio = 1\n[chord x]\nbuttons = play next\naction = lock\n", 6,
            "this board has no [button next]"
        ),
        (
            header
                + "[button play]\ngpio = 1\n[button next]\ngpio = 2\n[chord x]\nbuttons = play next\naction = jump\n",
            9, "unknown action 'jump'"
        ),
        (
            header + "[button play]\ngpio = 1\n[chord x]\nbuttons = play play\naction = lock\n", 6,
            "exactly two different buttons"
        ),
        ("gpio = 1\n", 1, "outside any section"),
        (header + "[speaker]\n", 3, "unknown section"),
        (header + "just words\n", 3, "expected 'key = value'"),
        ("[board]\n[button play]\ngpio = 1\n", 1, "needs 'chip = LABEL'"),
        ("[board]\nsource = input\n[button play]\nkey = KEY_FOO\n", 4, "unknown key 'KEY_FOO'"),
    ])
    func brokenFilesNameTheFileTheLineAndTheProblem(text: String, line: Int, problem: String) {
        #expect {
            try BoardFileParser.parse(text, file: "board/broken.conf")
        } throws: { error in
            guard let error = error as? BoardFileError else { return false }
            return error.file == "board/broken.conf" && error.line == line && error.problem.contains(problem)
                && error.description.hasPrefix("board/broken.conf:\(line): ")
        }
    }

    @Test func aFileWithoutButtonsOrBoardSectionSaysSo() {
        #expect(throws: BoardFileError(file: "f", line: nil, problem: "no [board] section")) {
            try BoardFileParser.parse("", file: "f")
        }
        #expect(throws: BoardFileError.self) { try BoardFileParser.parse("[board]\nchip = c\n", file: "f") }
    }

    @Test(arguments: [("20ms", 20), ("0ms", 0), ("1.5s", 1500), ("2s", 2000), ("0.025s", 25), ("300 ms", 300)])
    func durationsParse(text: String, ms: Int64) {
        #expect(DurationText.parse(text) == .milliseconds(ms))
    }

    @Test(arguments: ["20", "-5ms", "1.5ms", "s", "ms", "1.2345s", "abc", "", "1e3ms", "99999999999ms"])
    func badDurationsAreRejected(text: String) {
        #expect(DurationText.parse(text) == nil)
    }
}
