import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@Suite struct ConfigParserTests {
    @Test func readsEveryKeyWithCommentsAndBlankLines() throws {
        let text = """
            # a comment
            library-root = /media
            library-root = /mnt/usb   # trailing comment

            device = hw:1,0
            mixer = Digital
            state-dir = /var/lib/x
            socket = /run/x/socket
            board = rpi4
            volume-steps = 30
            volume = 7
            max-volume = 25
            resume = paused
            log-level = debug
            tcp = 6600
            card-root = /card
            """
        let config = try ConfigParser.parse(text, file: "/etc/s.conf")
        #expect(config.libraryRoots == ["/media", "/mnt/usb"])
        #expect(config.cardRoot == "/card" && config.watchedRoots == ["/media", "/mnt/usb", "/card"])
        #expect(config.device == "hw:1,0")
        #expect(config.mixer == "Digital")
        #expect(config.stateDirectory == "/var/lib/x")
        #expect(config.socket == "/run/x/socket")
        #expect(config.board == "rpi4")
        #expect(config.volumeSteps == 30 && config.volume == 7 && config.maxVolume == 25)
        #expect(config.resumePaused)
        #expect(config.logLevel == .debug)
        #expect(config.tcp == TCPAddress(host: "127.0.0.1", port: 6600))
    }

    @Test func readsTheShuffleModeAndGapsAndRefusesOthers() throws {
        let config = try ConfigParser.parse("shuffle = albums\nartist-gap = 3\nalbum-gap = 0\n", file: "f")
        #expect(config.shuffle == ShuffleSettings(mode: .albums, artistGap: 3, albumGap: 0))
        #expect(DaemonConfig().shuffle == .standard)
        #expect(DaemonConfig().shuffle.mode == .balanced)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("shuffle = random\n", file: "f") }
        #expect(throws: ConfigError.self) { try ConfigParser.parse("artist-gap = 51\n", file: "f") }
        let flagged = try ConfigParser.parse("", file: "f", overrides: [ConfigOverride(key: "shuffle", value: "in-order")])
        #expect(flagged.shuffle.mode == .inOrder)
    }

    @Test func readsTheLoudnessKeysAndRefusesOthers() throws {
        let config = try ConfigParser.parse(
            "replay-gain = album\nreplay-gain-preamp = -3.5\nloudness-target = -23\n", file: "f")
        #expect(config.loudness == LoudnessSettings(mode: .album, targetLUFS: -23, preampDecibels: -3.5))
        #expect(DaemonConfig().loudness == LoudnessSettings(mode: .track, targetLUFS: -18, preampDecibels: 0))
        #expect(try ConfigParser.parse("replay-gain-preamp = +2\n", file: "f").loudness.preampDecibels == 2)
        for bad in [
            "replay-gain = loud", "replay-gain-preamp = 16", "replay-gain-preamp = nan", "replay-gain-preamp = 1e1",
            "loudness-target = 0", "loudness-target = -18 LUFS",
        ] {
            #expect(throws: ConfigError.self, "\(bad)") { try ConfigParser.parse(bad + "\n", file: "f") }
        }
        let flagged = try ConfigParser.parse(
            "", file: "f", overrides: [ConfigOverride(key: "replay-gain", value: "off")])
        #expect(flagged.loudness.mode == .off)
    }

    @Test func emptyFileGivesDefaults() throws {
        let config = try ConfigParser.parse("", file: "x")
        #expect(config == DaemonConfig())
        #expect(config.libraryRoots == ["/media"] && config.device == "default" && !config.resumePaused)
        #expect(config.tcp == nil && config.logLevel == .notice)
    }

    @Test(arguments: [
        ("colour = blue", 1, "unknown key 'colour'"),
        ("\n\nvolume = loud", 3, "'volume' needs a whole number from 0 to 1000, not 'loud'"),
        ("volume 5", 1, "expected 'key = value'"),
        ("resume = maybe", 1, "'resume' must be 'playing' or 'paused'"),
        ("log-level = chatty", 1, "'log-level' must be one of"),
        ("tcp = host:notaport", 1, "'tcp' needs PORT, HOST:PORT or off"),
        ("library-root = media", 1, "needs an absolute folder"),
        ("card-root = card", 1, "'card-root' needs an absolute folder"),
        ("device = a\ndevice = b", 2, "'device' is already set on line 1"),
        ("volume-steps = 10\nmax-volume = 12", 2, "'max-volume' 12 is above 'volume-steps' 10"),
        ("max-volume = 5\nvolume = 8", 2, "'volume' 8 is above 'max-volume' 5"),
        ("volume-steps = 0", 1, "'volume-steps' needs a whole number from 1"),
        ("mixer =", 1, "'mixer' needs a mixer control name"),
    ])
    func badLinesNameFileAndLine(_ text: String, _ line: Int, _ message: String) {
        #expect {
            try ConfigParser.parse(text, file: "/etc/shufflebox/shufflebox.conf")
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.file == "/etc/shufflebox/shufflebox.conf" && error.line == line
                && error.message.contains(message)
                && error.description.hasPrefix("/etc/shufflebox/shufflebox.conf:\(line): ")
        }
    }

    @Test func flagsWinOverTheFileAndRootsReplace() throws {
        let config = try ConfigParser.parse(
            "library-root = /media\nvolume = 5\ndevice = hw:0",
            file: "f",
            overrides: [
                ConfigOverride(key: "library-root", value: "/tmp/a"),
                ConfigOverride(key: "library-root", value: "/tmp/b"),
                ConfigOverride(key: "volume", value: "9"),
                ConfigOverride(key: "tcp", value: "0.0.0.0:6601"),
            ])
        #expect(config.libraryRoots == ["/tmp/a", "/tmp/b"])
        #expect(config.volume == 9 && config.device == "hw:0")
        #expect(config.tcp == TCPAddress(host: "0.0.0.0", port: 6601))
    }

    @Test func badFlagNamesTheFlag() {
        #expect {
            try ConfigParser.applyOverrides([ConfigOverride(key: "volume", value: "x")], to: DaemonConfig())
        } throws: { error in
            (error as? ConfigError)?.description
                == "command line: --volume: 'volume' needs a whole number from 0 to 1000, not 'x'"
        }
    }

    @Test(arguments: [
        ("6600", "127.0.0.1:6600"), (":6600", "127.0.0.1:6600"), ("0.0.0.0:1", "0.0.0.0:1"),
        ("[::1]:6600", "[::1]:6600"),
    ])
    func tcpAddresses(_ text: String, _ expected: String) {
        #expect(TCPAddress(parsing: text)?.description == expected)
    }

    @Test(arguments: ["", "0", "70000", "host:", "[::1]6600", "a b:1"])
    func badTCPAddresses(_ text: String) {
        #expect(TCPAddress(parsing: text) == nil)
    }

    @Test func theVoiceKeysReplaceOrSilenceMessagesAndBadValuesSayWhy() throws {
        let config = try ConfigParser.parse(
            "speech = on\nvoice = de\nduck = -20\nsay-loading = Musik wird geladen\nsay-max-volume = off\n",
            file: "x.conf")
        #expect(config.speech.language == "de")
        #expect(config.duckDecibels == -20)
        #expect(config.speech.text(.loading) == "Musik wird geladen")
        #expect(config.speech.text(.maximumVolume) == nil)
        #expect(config.speech.text(.noMusic) == "No music found on this stick")
        let off = try ConfigParser.parse("speech = off\n", file: "x.conf")
        #expect(off.speech.text(.loading) == nil)
        for (line, message) in [
            ("speech = maybe", "'speech' must be 'on' or 'off'"), ("voice = En Gb", "'voice' needs an espeak-ng language"),
            ("duck = 6", "'duck' needs a whole number from -40 to 0"), ("say-loading =", "'say-loading' needs the words"),
            ("say-everything = hi", "unknown key 'say-everything'"),
        ] {
            var caught: ConfigError?
            do { _ = try ConfigParser.parse(line + "\n", file: "x.conf") } catch { caught = error }
            #expect(caught?.description.contains(message) == true, "\(line): \(String(describing: caught))")
        }
    }

    @Test func shippedExampleParses() throws {
        let url = PackagePaths.root.appendingPathComponent("board/common/shufflebox.conf")
        let text = try String(contentsOf: url, encoding: .utf8)
        let config = try ConfigParser.parse(text, file: url.path)
        #expect(config.libraryRoots == ["/media"])
        #expect(config.volume == 10 && config.maxVolume == 20 && config.volumeSteps == 20)
        #expect(config.speech.enabled && config.speech.language == "en" && config.duckDecibels == -15)
    }
}
