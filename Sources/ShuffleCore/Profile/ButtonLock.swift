/// The profile for children's button lock: while locked, every button action but the lock chord itself and
/// the power button is refused (switching the box off is always allowed, as pulling its plug is). The lock
/// is stored (the daemon keeps `lockFileText` in its state folder), so it survives a
/// restart or a power cut.
public struct ButtonLock: Sendable, Equatable {
    /// Whether the buttons are locked.
    public private(set) var locked: Bool

    /// What to do with one button action.
    public enum Decision: Equatable, Sendable {
        /// Carry the action out.
        case perform(ButtonAction)
        /// Refuse it (flash the light).
        case refuse(ButtonAction)
        /// The lock chord changed the lock: store it and show it.
        case changed(locked: Bool)
    }

    /// Creates a lock.
    public init(locked: Bool = false) { self.locked = locked }

    /// The lock as stored in `text` (the lock file's contents; nil when there is no file): locked only when
    /// the file says `locked`.
    public init(fileText text: String?) {
        locked = text?.split(whereSeparator: { $0 == "\n" || $0 == " " }).first == "locked"
    }

    /// The lock file's contents.
    public var fileText: String { locked ? "locked\n" : "unlocked\n" }

    /// Decides one button action.
    public mutating func decide(_ action: ButtonAction) -> Decision {
        if action == .lock {
            locked.toggle()
            return .changed(locked: locked)
        }
        return locked && action != .powerOff && action != .batteryLow ? .refuse(action) : .perform(action)
    }
}
