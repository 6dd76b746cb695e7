/// How the daemon waits for what udev hands over at boot. The daemon starts beside udev's coldplug, not
/// after it, so a GPIO chip, an LED (leds-gpio is a module udev loads) or an LED's attributes (which udev
/// gives to the daemon's group) may come after it started, tens of seconds late on a slow or loaded board.
/// Each is tried again after 50 ms times the attempt, at most 1 s apart, for 2 minutes from
/// the first try; once it is there, or the time is up, nothing more is armed.
struct UdevWait {
    static let step: Duration = .milliseconds(50)
    static let cap: Duration = .seconds(1)
    static let limit: Duration = .seconds(120)

    /// When the first try failed (the loop's clock).
    let since: Duration
    private(set) var attempt = 0

    init(since: Duration) { self.since = since }

    /// When to try next (the loop's clock), or nil once the wait is over.
    mutating func next(now: Duration) -> Duration? {
        guard now - since < Self.limit else { return nil }
        attempt += 1
        return now + min(Self.step * attempt, Self.cap)
    }

    /// Milliseconds since the first try.
    func elapsedMs(now: Duration) -> Int64 { (now - since).milliseconds }
}

extension Duration {
    /// Whole milliseconds (rounded down), for the log and the benchmarks.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
