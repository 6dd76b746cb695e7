import ShuffleCore
import Testing

/// The `MILLISECONDS BUTTON press|release` script format.
@Suite struct ButtonScriptTests {
    @Test func parsesEdgesCommentsAndBlankLines() throws {
        let edges = try ButtonScript.parse("# a click\n\n0 play press   # down\n\t120  play  release\n", file: "s")
        #expect(edges == [ButtonEdge(.play, .press, at: .zero), ButtonEdge(.play, .release, at: .milliseconds(120))])
    }

    @Test(arguments: [
        ("0 play press\nten play release\n", 2, "bad time 'ten'"),
        ("0 play push\n", 1, "unknown edge 'push'"),
        ("0 stop press\n", 1, "unknown button 'stop'"),
        ("0 play\n", 1, "expected 'MILLISECONDS BUTTON press|release'"),
        ("500 play press\n400 play release\n", 2, "time goes backwards: 400 after 500"),
        ("0 next press\n", 1, "board test-one has no button next"),
    ])
    func errorsNameTheLine(text: String, line: Int, problem: String) {
        #expect {
            try ButtonScript.parse(text, file: "s.txt", board: ButtonTestBoards.one)
        } throws: { error in
            guard let error = error as? BoardFileError else { return false }
            return error.line == line && error.problem.contains(problem) && error.file == "s.txt"
        }
    }

    @Test func aScriptThatEndsWithAButtonHeldReleasesItThere() throws {
        let edges = try ButtonScript.parse("0 next press\n700 next press\n", file: "s")
        let outcome = ButtonReplay.run(edges, board: ButtonTestBoards.five)
        #expect(outcome.releasedAtEnd == [.next])
        #expect(outcome.gestures.map(\.gesture) == [.hold, .hold])
    }
}
