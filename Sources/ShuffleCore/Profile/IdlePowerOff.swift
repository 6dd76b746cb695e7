/// When the idle power-off's deadline stands: paused, or with no stick (a box left on with a battery pack).
/// Playing, indexing or in error it does not (an error may be a device coming back).
public enum IdlePowerOff {
    /// Whether a box in `state` is idle: its one deadline is armed on entering such a state and removed on
    /// leaving it, so nothing wakes in between.
    public static func isIdle(_ state: DaemonState) -> Bool {
        switch state {
        case .paused, .noLibrary: true
        case .playing, .indexing, .error: false
        }
    }
}
