/// What `shufflebox buttons --speak` says for a gesture: the button, the header pin it is wired to (or the
/// key code), and the gesture, so a person soldering with no screen hears which wire works.
///
///     play, pin 11, click          volume up, pin 13, hold
///     play and volume down, chord   next, key 163, double click
public enum SpokenGesture {
    /// The words for `event` on `board`.
    public static func text(for event: GestureEvent, board: BoardConfig) -> String {
        let names = event.buttons.map { $0.rawValue.replacing("-", with: " ") }.joined(separator: " and ")
        var parts = [names]
        if event.buttons.count == 1, let settings = board.settings(for: event.buttons[0]) {
            if let pin = settings.headerPin {
                parts.append("pin \(pin)")
            } else if let line = settings.line {
                parts.append("GPIO \(line)")
            } else if let key = settings.keyCode {
                parts.append("key \(key)")
            }
        }
        parts.append(words(event.gesture))
        return parts.joined(separator: ", ")
    }

    static func words(_ gesture: Gesture) -> String {
        switch gesture {
        case .click: "click"
        case .double: "double click"
        case .triple: "triple click"
        case .long: "long press"
        case .hold: "hold"
        case .chord: "chord"
        }
    }
}
