/// The sleep timer's end: the volume stepped down evenly from the level playing to silence over the fade
/// (default 30 s), then the player pauses and the level comes back for the next play.
public enum SleepFade {
    /// The default fade.
    public static let defaultDuration: Duration = .seconds(30)

    /// One step of the fade: set the volume to `step` at `at` after the fade began.
    public struct Step: Equatable, Sendable {
        /// Offset from the fade's start.
        public var at: Duration
        /// The volume step to set.
        public var step: Int

        /// Creates a step.
        public init(at: Duration, step: Int) {
            self.at = at
            self.step = step
        }
    }

    /// The steps from `level` down to 0, evenly spread so the last (0) is at `duration`; none at level 0.
    /// Each step changes the gain by one volume step, ramped by the player, so the decline has no jumps
    /// larger than one step.
    public static func steps(from level: Int, over duration: Duration) -> [Step] {
        guard level > 0 else { return [] }
        return (1...level).map { index in
            Step(at: duration * Double(index) / Double(level), step: level - index)
        }
    }
}
