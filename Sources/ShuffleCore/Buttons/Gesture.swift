/// A recognised way of pressing a button (or two), before it is mapped to an action.
public enum Gesture: String, CaseIterable, Sendable, Hashable {
    /// One short press and release.
    case click
    /// Two clicks within the double-click window.
    case double
    /// Three clicks, each within the double-click window of the one before.
    case triple
    /// Held until the long-press time: fires once, while still held.
    case long
    /// Held past the hold delay: fires then, and again every repeat interval until released.
    case hold
    /// Two buttons held together for the chord's hold time.
    case chord

    /// The gesture for `count` clicks in a row (1 click, 2 double, 3 or more triple).
    public static func clicks(_ count: Int) -> Gesture {
        switch count {
        case ...1: .click
        case 2: .double
        default: .triple
        }
    }
}
