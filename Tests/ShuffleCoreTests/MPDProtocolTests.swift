import ShuffleCore
import Testing

@Suite struct MPDRequestTests {
    @Test(arguments: [
        ("status", "status", [String]()),
        ("  setvol   50 ", "setvol", ["50"]),
        (#"search title "a \"quoted\" b\\c""#, "search", ["title", #"a "quoted" b\c"#]),
        (#"find any """#, "find", ["any", ""]),
        ("pause 1\r", "pause", ["1"]),
        ("search any Björk", "search", ["any", "Björk"]),
    ])
    func parses(_ line: String, _ name: String, _ arguments: [String]) throws {
        #expect(try MPDRequest.parse(Array(line.utf8)) == MPDRequest(name: name, arguments: arguments))
    }

    @Test(arguments: [
        ("", MPDError.Code.unknown), (#"search "unterminated"#, .argument), (#"search a"b"#, .argument),
        (#"find "a"b"#, .argument), ("st@tus", .unknown), ("   ", .unknown),
    ])
    func refuses(_ line: String, _ code: MPDError.Code) {
        #expect(throws: MPDError.self) { try MPDRequest.parse(Array(line.utf8)) }
        #expect((try? MPDRequest.parse(Array(line.utf8))) == nil)
        do {
            _ = try MPDRequest.parse(Array(line.utf8))
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: MPDError.self) { try MPDRequest.parse([0x73, 0xFF]) }
    }

    @Test func quoteRoundTrips() throws {
        let value = #"a "b" \c"#
        #expect(try MPDRequest.parse(Array("find title \(MPDRequest.quote(value))".utf8)).arguments == ["title", value])
    }

    @Test func ackFormat() {
        #expect(MPDError(.unknown, "unknown command \"x\"").ackLine(listIndex: 2, command: "") == "ACK [5@2] {} unknown command \"x\"\n")
        #expect(MPDError(.argument, "a\nb").ackLine(listIndex: 0, command: "setvol") == "ACK [2@0] {setvol} a b\n")
    }
}

@Suite struct MPDLineBufferTests {
    @Test func splitsAcrossChunks() {
        var buffer = MPDLineBuffer(maxLength: 10)
        #expect(buffer.append(Array("sta".utf8)) == [])
        #expect(buffer.append(Array("tus\nping\nne".utf8)) == [.line(Array("status".utf8)), .line(Array("ping".utf8))])
        #expect(buffer.append(Array("xt\n".utf8)) == [.line(Array("next".utf8))])
    }

    @Test func refusesOversizedLinesWithOrWithoutNewline() {
        var buffer = MPDLineBuffer(maxLength: 10)
        #expect(buffer.append(Array("ping\n0123456789A\n".utf8)) == [.line(Array("ping".utf8)), .oversized])
        var open = MPDLineBuffer(maxLength: 10)
        #expect(open.append(Array(repeating: UInt8(ascii: "x"), count: 11)) == [.oversized])
    }

    @Test(arguments: [(0, 20, 0), (10, 20, 50), (20, 20, 100), (1, 3, 33), (2, 3, 67)])
    func volumePercent(_ step: Int, _ steps: Int, _ percent: Int) {
        #expect(MPDVolume.percent(step: step, steps: steps) == percent)
    }

    @Test(arguments: [(0, 20, 0), (50, 20, 10), (100, 20, 20), (33, 3, 1), (2, 20, 0), (3, 20, 1), (150, 20, 20)])
    func volumeStep(_ percent: Int, _ steps: Int, _ step: Int) {
        #expect(MPDVolume.step(percent: percent, steps: steps) == step)
    }

    @Test func relativeVolumeMovesAtLeastOneStep() {
        #expect(MPDVolume.stepChange(percent: 1, steps: 20) == 1)
        #expect(MPDVolume.stepChange(percent: -1, steps: 20) == -1)
        #expect(MPDVolume.stepChange(percent: 10, steps: 20) == 2)
        #expect(MPDVolume.stepChange(percent: 0, steps: 20) == 0)
    }
}
