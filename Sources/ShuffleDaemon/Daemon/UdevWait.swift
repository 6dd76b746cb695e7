import LibLinux

/// How the daemon waits for what udev hands over at boot. The daemon starts beside udev's coldplug, not
/// after it, so a GPIO chip, an LED (leds-gpio is a module udev loads) or an LED's attributes (which udev
/// gives to the daemon's group) may come after it started: seen 10-40 s late in the arm64 image test on a
/// loaded host. Each is tried again after 50 ms times the attempt, at most 1 s apart, for 2 minutes from
/// the first try; once it is there, or the time is up, nothing more is armed.
struct UdevWait {
    static let step: UInt64 = 50_000_000
    static let cap: UInt64 = 1_000_000_000
    static let limit: UInt64 = 120_000_000_000

    /// When the first try failed (TimerFD's clock).
    let since: UInt64
    private(set) var attempt = 0

    init(since: UInt64 = TimerFD.now()) { self.since = since }

    /// When to try next (TimerFD's clock), or nil once the wait is over.
    mutating func next(now: UInt64 = TimerFD.now()) -> UInt64? {
        guard now - since < Self.limit else { return nil }
        attempt += 1
        return now + min(Self.step * UInt64(attempt), Self.cap)
    }

    /// Milliseconds since the first try.
    func elapsedMs(now: UInt64 = TimerFD.now()) -> UInt64 { (now - since) / 1_000_000 }
}
