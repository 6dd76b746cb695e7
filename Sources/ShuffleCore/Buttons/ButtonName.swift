/// A physical button of the box, by the name used everywhere: board files, output and documentation.
///
/// A five-button board has all of them; a one-button board has only ``play``.
public enum ButtonName: String, CaseIterable, Sendable, Hashable, Comparable {
    /// The big middle button: play/pause (and, on a one-button board, everything).
    case play
    /// Next track (hold: seek forward).
    case next
    /// Previous track or restart (hold: seek back).
    case previous
    /// One volume step up (hold: repeat).
    case volumeUp = "volume-up"
    /// One volume step down (hold: repeat).
    case volumeDown = "volume-down"
    /// The on/off switch (long press: `power-off`). On a Raspberry Pi it is wired to GPIO3, the line whose
    /// fall wakes a halted board.
    case power
    /// Not a button: a battery board's low-battery signal (a power-boost board's LBO, a UPS HAT's alert
    /// pin), "pressed" while the battery is nearly flat (long press: `battery-low`).
    case battery

    /// Whether the line is a level held as long as its condition lasts, not a button: one already active when
    /// the box starts (a box switched on with a flat battery) is taken as pressed from then on. A button held
    /// at start is not (the power button still held from waking the board would switch it off again).
    public var isLevelSignal: Bool { self == .battery }

    /// The names as a person reads them in an error message: "play, next, previous, volume-up, volume-down,
    /// power, battery".
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Orders buttons as `allCases` lists them.
    public static func < (lhs: ButtonName, rhs: ButtonName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
