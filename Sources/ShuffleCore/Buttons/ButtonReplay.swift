/// Runs recorded edges through a `GestureRecognizer` the way the live check does: the recogniser
/// is woken at each of its deadlines before the next edge, exactly as a sleeping daemon would be.
public enum ButtonReplay {
    /// One thing that happened during a replay, in order.
    public enum Item: Equatable, Sendable {
        /// A raw edge, as fed.
        case edge(ButtonEdge)
        /// A recognised gesture.
        case gesture(GestureEvent)
    }

    /// What a replay produced.
    public struct Outcome: Equatable, Sendable {
        /// Edges and gestures in the order they happened.
        public var items: [Item]
        /// Buttons the script left pressed; each got a release at the script's last time.
        public var releasedAtEnd: [ButtonName]

        /// The gestures alone.
        public var gestures: [GestureEvent] {
            items.compactMap { if case .gesture(let event) = $0 { event } else { nil } }
        }
    }

    /// Replays `edges` on `board` until every pending gesture has resolved.
    public static func run(_ edges: [ButtonEdge], board: BoardConfig) -> Outcome {
        var recognizer = GestureRecognizer(board: board)
        var items: [Item] = []
        func wake(before time: Duration?) {
            while let deadline = recognizer.nextDeadline, time.map({ deadline < $0 }) ?? true {
                let before = recognizer.now
                let events = recognizer.advance(to: deadline)
                items += events.map(Item.gesture)
                // A deadline that neither moved time nor produced anything would loop forever.
                if events.isEmpty && recognizer.now == before && recognizer.nextDeadline == deadline { break }
            }
        }
        for edge in edges where board.settings(for: edge.button) != nil {
            wake(before: edge.time)
            items.append(.edge(edge))
            items += recognizer.handle(edge).map(Item.gesture)
        }
        let held = recognizer.rawPressedButtons
        for button in held {
            let release = ButtonEdge(button, .release, at: recognizer.now)
            items.append(.edge(release))
            items += recognizer.handle(release).map(Item.gesture)
        }
        wake(before: nil)
        return Outcome(items: items, releasedAtEnd: held)
    }
}
