/// The lines `shufflebox buttons` prints: one per gesture (and per raw edge with `--raw`), as text
/// for a person or as one JSON object per line.
public struct ButtonReport: Sendable {
    /// One JSON object per line instead of text.
    public var json: Bool
    /// Printed times are relative to this (the start of the check, or zero for a script).
    public var origin: Duration

    /// Creates a report format.
    public init(json: Bool, origin: Duration = .zero) {
        self.json = json
        self.origin = origin
    }

    /// The line for a recognised gesture:
    /// `{"t":1200,"button":"play","gesture":"click","action":"play-pause"}` or
    /// `    1200 ms  play          click    -> play-pause`.
    public func line(for event: GestureEvent) -> String {
        let ms = DurationText.milliseconds(event.time - origin)
        if json {
            return JSONText.render(
                .object([
                    ("t", .int(ms)), ("button", .string(event.buttonLabel)),
                    ("gesture", .string(event.gesture.rawValue)),
                    ("action", JSONText.string(event.action?.rawValue)),
                ]))
        }
        let action = event.action.map { "-> \($0.rawValue)" } ?? "(no action)"
        return "\(Self.pad(String(ms), left: 8)) ms  \(Self.pad(event.buttonLabel, right: 24))"
            + "\(Self.pad(event.gesture.rawValue, right: 8))\(action)"
    }

    /// The line for a raw edge: `{"t":1180,"button":"play","edge":"press"}` or `    1180 ms  play  press`.
    public func line(for edge: ButtonEdge) -> String {
        let ms = DurationText.milliseconds(edge.time - origin)
        if json {
            return JSONText.render(
                .object([
                    ("t", .int(ms)), ("button", .string(edge.button.rawValue)), ("edge", .string(edge.kind.rawValue)),
                ]))
        }
        return "\(Self.pad(String(ms), left: 8)) ms  \(Self.pad(edge.button.rawValue, right: 24))\(edge.kind.rawValue)"
    }

    static func pad(_ text: String, left width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func pad(_ text: String, right width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
