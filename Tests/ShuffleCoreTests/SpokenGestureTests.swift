import ShuffleCore
import Testing

/// The words `buttons --speak` says: button, wiring (header pin, else GPIO line, else key code), gesture.
@Suite struct SpokenGestureTests {
    static let board = BoardConfig(
        name: "wired",
        buttons: [
            ButtonSettings(name: .play, line: 17, headerPin: 11),
            ButtonSettings(name: .volumeUp, line: 27),
            ButtonSettings(name: .next, keyCode: 163),
            ButtonSettings(name: .volumeDown),
        ])

    @Test(arguments: [
        ([ButtonName.play], Gesture.click, "play, pin 11, click"),
        ([.play], .double, "play, pin 11, double click"),
        ([.volumeUp], .hold, "volume up, GPIO 27, hold"),
        ([.next], .triple, "next, key 163, triple click"),
        ([.volumeDown], .long, "volume down, long press"),
        ([.play, .volumeDown], .chord, "play and volume down, chord"),
    ])
    func eachGestureNamesTheButtonItsWireAndTheGesture(_ buttons: [ButtonName], _ gesture: Gesture, _ words: String) {
        let event = GestureEvent(time: .zero, buttons: buttons, gesture: gesture, action: nil)
        #expect(SpokenGesture.text(for: event, board: Self.board) == words)
    }
}
