import ShuffleCore
import Testing

@Suite struct CommandParsingTests {
    @Test func indexTakesOneFolderAndADatabase() throws {
        #expect(
            try Command.parse(["index", "/media/usb", "--db", "x.db"])
                == .index(.init(root: "/media/usb", database: "x.db")))
        #expect(try Command.parse(["index", "--db=x.db", "/m"]) == .index(.init(root: "/m", database: "x.db")))
    }

    @Test func searchJoinsWordsAndKeepsDashes() throws {
        let parsed = try Command.parse(["search", "beyonce", "halo", "--limit", "5", "--json"])
        #expect(parsed == .search(.init(query: "beyonce halo", limit: 5, json: true)))
        #expect(try Command.parse(["search", "--", "-live"]) == .search(.init(query: "-live")))
    }

    @Test func playOptions() throws {
        let parsed = try Command.parse([
            "play", "lib", "--device", "capture", "--seed", "7", "--volume", "10", "--max-volume", "12", "--once",
            "--mixer", "Digital",
        ])
        #expect(
            parsed
                == .play(
                    .init(
                        root: "lib", device: "capture", mixer: "Digital", seed: 7, volume: 10, maxVolume: 12,
                        once: true)))
        guard
            case .play(let loud) = try Command.parse([
                "play", "lib", "--replay-gain", "album", "--replay-gain-preamp", "-2", "--loudness-target", "-20",
            ])
        else { throw TestFailure("not play") }
        #expect(loud.loudness == LoudnessSettings(mode: .album, targetLUFS: -20, preampDecibels: -2))
        #expect(throws: UsageError.self) { try Command.parse(["play", "lib", "--replay-gain", "max"]) }
        #expect(throws: UsageError.self) { try Command.parse(["play", "lib", "--loudness-target", "3"]) }
        guard case .index(let index) = try Command.parse(["index", "lib", "--measure-loudness"]) else {
            throw TestFailure("not index")
        }
        #expect(index.measureLoudness)
    }

    @Test func ctlActions() throws {
        #expect(try Command.parse(["ctl", "next"]) == .ctl(.init(action: .next)))
        #expect(try Command.parse(["ctl", "volume", "+2"]) == .ctl(.init(action: .changeVolume(2))))
        #expect(try Command.parse(["ctl", "volume", "--", "-3"]) == .ctl(.init(action: .changeVolume(-3))))
        #expect(try Command.parse(["ctl", "volume", "7"]) == .ctl(.init(action: .setVolume(7))))
    }

    @Test func runCollectsRepeatableOverridesInOrder() throws {
        let parsed = try Command.parse(["run", "--library-root", "/a", "--library-root", "/b", "--device", "hw:1"])
        guard case .run(let options) = parsed else {
            Issue.record("not a run command")
            return
        }
        #expect(options.overrides.map(\.key) == ["library-root", "library-root", "device"])
        #expect(options.overrides.map(\.value) == ["/a", "/b", "hw:1"])
    }

    @Test(arguments: [
        (["index"], "'index' needs exactly one folder"),
        (["index", "a", "b"], "'index' needs exactly one folder"),
        (["index", "a", "--fast"], "unknown option --fast for 'index'"),
        (["search", "x", "--limit", "0"], "option --limit needs a whole number from 1 to 1000000, not '0'"),
        (["search", "x", "--limit"], "option --limit needs a value"),
        (["play", "d", "--seed", "abc"], "option --seed needs a whole number, not 'abc'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["ctl", "volume", "loud"], "'ctl volume' needs +N, -N or N, not 'loud'"),
        (["list", "--json=yes"], "option --json takes no value"),
    ])
    func badCommandLinesSayWhatIsWrong(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try Command.parse(arguments) }
        do {
            _ = try Command.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func helpForEveryCommandNamesIt() {
        for name in Usage.commands {
            #expect(Usage.text(for: name).hasPrefix("usage: shufflebox \(name)"))
            #expect((try? Command.parse([name, "--help"])) == .help(command: name))
        }
        #expect(Usage.text(for: nil) == Usage.overview)
    }
}

/// A test's own failure with a sentence.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
