import ShuffleCore

/// Boards built in code for the recogniser tests, with the default timings
/// (debounce 20 ms, double click 300 ms, long press 800 ms, hold delay 500 ms, repeat 150 ms).
enum ButtonTestBoards {
    /// The design's five-button map plus a `lock` chord on the volume buttons (2 s).
    static let five = BoardConfig(
        name: "test-five",
        buttons: [
            ButtonSettings(name: .play, actions: [.click: .playPause, .double: .next, .long: .speak]),
            ButtonSettings(name: .next, actions: [.click: .next, .hold: .seekForward]),
            ButtonSettings(name: .previous, actions: [.click: .previous]),
            ButtonSettings(name: .volumeUp, actions: [.click: .volumeUp, .hold: .volumeUp]),
            ButtonSettings(name: .volumeDown, actions: [.click: .volumeDown, .hold: .volumeDown]),
        ],
        chords: [ChordSettings(name: "lock", buttons: [.volumeUp, .volumeDown], hold: .seconds(2), action: .lock)])

    /// One button: click play/pause, double next, triple previous, long speak.
    static let one = BoardConfig(
        name: "test-one",
        buttons: [
            ButtonSettings(
                name: .play, actions: [.click: .playPause, .double: .next, .triple: .previous, .long: .speak])
        ])

    /// Replays `script` ("MS BUTTON press|release" lines) on `board`; returns "MS BUTTON GESTURE ACTION" lines.
    static func gestures(_ script: String, on board: BoardConfig = five) throws -> [String] {
        let edges = try ButtonScript.parse(script, file: "test", board: board)
        return ButtonReplay.run(edges, board: board).gestures.map(\.description)
    }
}
