import ShuffleCore
import Testing

/// Table tests: scripted edges in, gestures out. Times are event times in milliseconds.
@Suite struct GestureRecognizerTests {
    @Test(arguments: [
        // A clean press on a button without double/triple fires at once on release.
        "0 previous press\n100 previous release",
        // Bounce on press.
        "0 previous press\n1 previous release\n2 previous press\n4 previous release\n5 previous press\n100 previous release",
        // Bounce on release.
        "0 previous press\n100 previous release\n101 previous press\n103 previous release\n104 previous press\n106 previous release",
        // Bounce on both, and a repeated press edge (a missed release).
        "0 previous press\n3 previous release\n4 previous press\n5 previous press\n90 previous release\n92 previous press\n95 previous release",
    ])
    func aBouncingPressGivesExactlyOneClick(_ script: String) throws {
        let gestures = try ButtonTestBoards.gestures(script)
        #expect(gestures.count == 1)
        #expect(gestures.first?.hasSuffix("previous click previous") == true)
    }

    @Test func aGlitchShorterThanTheDebounceIsNothing() throws {
        #expect(try ButtonTestBoards.gestures("0 previous press\n5 previous release").isEmpty)
        #expect(try ButtonTestBoards.gestures("0 previous press\n19 previous release").isEmpty)
        #expect(try ButtonTestBoards.gestures("0 previous press\n20 previous release").count == 1)
    }

    @Test func aClickThatCouldBecomeADoubleWaitsOnlyTheWindow() throws {
        #expect(try ButtonTestBoards.gestures("0 play press\n100 play release") == ["400ms play click play-pause"])
        #expect(try ButtonTestBoards.gestures("0 next press\n100 next release") == ["100ms next click next"])
    }

    @Test(arguments: [
        (299, ["599ms play double next"]),
        (300, ["500ms play click play-pause", "900ms play click play-pause"]),
    ])
    func doubleClickWindowBoundary(gap: Int, expected: [String]) throws {
        let second = 200 + gap
        let script = "100 play press\n200 play release\n\(second) play press\n\(second + 100) play release"
        #expect(try ButtonTestBoards.gestures(script) == expected)
    }

    @Test(arguments: [
        (299, ["898ms play triple previous"]),
        (300, ["799ms play double next", "1199ms play click play-pause"]),
    ])
    func tripleClickWindowBoundary(gap: Int, expected: [String]) throws {
        let third = 499 + gap
        let script = """
            100 play press
            200 play release
            399 play press
            499 play release
            \(third) play press
            \(third + 100) play release
            """
        let gestures = try ButtonTestBoards.gestures(script, on: ButtonTestBoards.one)
        #expect(gestures == expected.map { gap == 299 ? $0.replacingTime(with: third + 100) : $0 })
    }

    @Test(arguments: [
        (799, ["1099ms play click play-pause"]),
        (800, ["800ms play long speak"]),
        (5000, ["800ms play long speak"]),
    ])
    func longPressBoundaryFiresOnceWhileHeld(release: Int, expected: [String]) throws {
        #expect(try ButtonTestBoards.gestures("0 play press\n\(release) play release") == expected)
    }

    @Test func longPressFiresBeforeTheRelease() throws {
        let edges = try ButtonScript.parse("0 play press\n3000 play release", file: "test")
        let items = ButtonReplay.run(edges, board: ButtonTestBoards.five).items
        let longIndex = items.firstIndex { if case .gesture(let g) = $0 { g.gesture == .long } else { false } }
        let releaseIndex = items.firstIndex { if case .edge(let e) = $0 { e.kind == .release } else { false } }
        #expect(longIndex != nil && releaseIndex != nil && longIndex! < releaseIndex!)
    }

    @Test(arguments: [(499, 0), (500, 1), (649, 1), (650, 2), (1000, 4), (2000, 11)])
    func holdRepeatsWhileHeld(release: Int, holds: Int) throws {
        let gestures = try ButtonTestBoards.gestures("0 next press\n\(release) next release")
        if holds == 0 {
            #expect(gestures == ["\(release)ms next click next"])
        } else {
            #expect(gestures.count == holds)
            #expect(gestures.allSatisfy { $0.hasSuffix("next hold seek-forward") })
            #expect(gestures.first == "500ms next hold seek-forward")
        }
    }

    @Test func aClickBeforeAHoldIsReportedFirst() throws {
        let script = "0 play press\n100 play release\n200 play press\n1200 play release"
        #expect(try ButtonTestBoards.gestures(script) == ["1000ms play click play-pause", "1000ms play long speak"])
    }

    @Test(arguments: [
        ("volume-up", "volume-down"), ("volume-down", "volume-up"),
    ])
    func aChordFiresOnceWhateverTheReleaseOrder(first: String, second: String) throws {
        let script = """
            0 volume-up press
            50 volume-down press
            3000 \(first) release
            3100 \(second) release
            """
        #expect(try ButtonTestBoards.gestures(script) == ["2050ms volume-up+volume-down chord lock"])
    }

    /// A button in two chords (the boards' play: lock with volume-down, start-over with previous): each pair
    /// makes its own chord, and a third button pressed during one chord begins no other.
    @Test func aButtonInTwoChordsMakesEachWithItsOwnPartner() throws {
        var board = ButtonTestBoards.five
        board.chords = [
            ChordSettings(name: "lock", buttons: [.play, .volumeDown], hold: .seconds(3), action: .lock),
            ChordSettings(name: "start-over", buttons: [.play, .previous], hold: .seconds(2), action: .startOver),
        ]
        let lock = "0 play press\n40 volume-down press\n3100 volume-down release\n3200 play release"
        #expect(try ButtonTestBoards.gestures(lock, on: board) == ["3040ms play+volume-down chord lock"])
        let over = "0 previous press\n40 play press\n2100 play release\n2200 previous release"
        #expect(try ButtonTestBoards.gestures(over, on: board) == ["2040ms play+previous chord start-over"])
        let both =
            "0 play press\n40 volume-down press\n500 previous press\n600 previous release\n"
            + "3100 volume-down release\n3200 play release"
        let heard = try ButtonTestBoards.gestures(both, on: board)
        #expect(heard == ["600ms previous click previous", "3040ms play+volume-down chord lock"])
    }

    @Test func eachChordButtonAloneDoesItsOwnThing() throws {
        #expect(
            try ButtonTestBoards.gestures("0 volume-up press\n100 volume-up release") == [
                "100ms volume-up click volume-up"
            ])
        #expect(
            try ButtonTestBoards.gestures("0 volume-down press\n100 volume-down release")
                == ["100ms volume-down click volume-down"])
        let held = try ButtonTestBoards.gestures("0 volume-up press\n700 volume-up release")
        #expect(held == ["500ms volume-up hold volume-up", "650ms volume-up hold volume-up"])
    }

    @Test func aChordReleasedEarlyDoesNothingAtAll() throws {
        let script = "0 volume-up press\n50 volume-down press\n1000 volume-down release\n1500 volume-up release"
        #expect(try ButtonTestBoards.gestures(script).isEmpty)
    }

    @Test func aButtonWorksNormallyAfterAChord() throws {
        let script = """
            0 volume-up press
            50 volume-down press
            2500 volume-down release
            2600 volume-down press
            2700 volume-down release
            2800 volume-up release
            3000 volume-up press
            3100 volume-up release
            """
        // The re-press of volume-down while volume-up is still held from the chord is swallowed.
        #expect(
            try ButtonTestBoards.gestures(script) == [
                "2050ms volume-up+volume-down chord lock", "3100ms volume-up click volume-up",
            ])
    }

    @Test func aSecondButtonAfterTheFirstStartedRepeatingIsNoChord() throws {
        let script = "0 volume-up press\n600 volume-down press\n700 volume-down release\n710 volume-up release"
        #expect(
            try ButtonTestBoards.gestures(script) == [
                "500ms volume-up hold volume-up", "650ms volume-up hold volume-up",
                "700ms volume-down click volume-down",
            ])
    }

    @Test func buttonsOutsideAChordAreIndependent() throws {
        let script = "0 next press\n50 previous press\n100 previous release\n200 next release"
        #expect(try ButtonTestBoards.gestures(script) == ["100ms previous click previous", "200ms next click next"])
    }

    @Test func nextDeadlineSaysWhenToWakeAndNothingWhenIdle() {
        var recognizer = GestureRecognizer(board: ButtonTestBoards.five)
        #expect(recognizer.nextDeadline == nil)
        _ = recognizer.handle(ButtonEdge(.play, .press, at: .milliseconds(1000)))
        #expect(recognizer.nextDeadline == .milliseconds(1020))
        #expect(recognizer.advance(to: .milliseconds(1020)).isEmpty)
        #expect(recognizer.nextDeadline == .milliseconds(1800))
        #expect(recognizer.advance(to: .milliseconds(1800)).map(\.gesture) == [.long])
        #expect(recognizer.nextDeadline == nil)
        _ = recognizer.handle(ButtonEdge(.play, .release, at: .milliseconds(2000)))
        #expect(recognizer.advance(to: .milliseconds(2020)).isEmpty)
        #expect(recognizer.nextDeadline == nil)
        #expect(recognizer.isIdle)
    }

    @Test func aLateWakeUpOrClockJumpDoesNotReplayEveryMissedRepeat() {
        var recognizer = GestureRecognizer(board: ButtonTestBoards.five)
        _ = recognizer.handle(ButtonEdge(.next, .press, at: .zero))
        let events = recognizer.advance(to: .seconds(3600))
        #expect(events.count >= 1 && events.count <= 20)
        #expect(recognizer.nextDeadline.map { $0 > .seconds(3600) } == true)
    }

    @Test func edgesStampedInThePastCountAsNow() {
        var recognizer = GestureRecognizer(board: ButtonTestBoards.five)
        _ = recognizer.advance(to: .seconds(10))
        _ = recognizer.handle(ButtonEdge(.previous, .press, at: .seconds(1)))
        let events =
            recognizer.handle(ButtonEdge(.previous, .release, at: .seconds(2))) + recognizer.advance(to: .seconds(11))
        #expect(events.map(\.description) == ["10000ms previous click previous"] || events.isEmpty)
        #expect(recognizer.now == .seconds(11))
    }
}

extension String {
    /// This "MSms ..." line with its time replaced.
    fileprivate func replacingTime(with ms: Int) -> String {
        guard let end = firstIndex(of: "m") else { return self }
        return "\(ms)" + self[end...]
    }
}
