import Glibc
import LibLinux
import LibPThread

/// The daemon's control loop: one thread waiting in `poll(2)` on every descriptor that matters
/// (sockets, the mount table, the signal pipe, button sources), a `timerfd` armed only for the next
/// deadline, and an `eventfd` other threads use to hand it work. With nothing due it sleeps in the
/// kernel with no timeout.
///
/// Time is a port: `now` is the kernel's monotonic clock (time since boot, the clock of GPIO edge
/// timestamps), or, in a loop made by `manual(at:)` for tests, a clock that moves only by `advance(by:)`.
final class EventLoop: @unchecked Sendable {
    // @unchecked: `sources`, `timers`, `timer` and `running` are touched only on the loop thread
    // (inside `run()` and the handlers it calls); other threads reach the loop only through `post`,
    // which goes through the `inbox` mutex and the eventfd.

    /// What a watched descriptor reported (`POLLIN`, `POLLPRI`, `POLLERR`, `POLLHUP`, `POLLOUT`).
    typealias Handler = (_ revents: Int16) -> Void

    private struct Source {
        var events: Int16
        var handler: Handler
    }

    private var sources: [Int32: Source] = [:]
    private var timers: [LoopTimer: (deadline: Duration, action: () -> Void)] = [:]
    private let timer: TimerFD
    private let wake: EventFD
    private let inbox = PThreadMutex<[@Sendable () -> Void]>([])
    private var running = false
    /// The thread inside `run()`; until it starts, whoever builds the loop may set it up.
    private var owner: pthread_t?
    /// The manual clock's reading (tests); nil: the kernel's clock.
    private var manualNow: Duration?

    /// Creates the loop's timer and wake-up descriptors.
    init() throws(LinuxError) {
        timer = try TimerFD()
        wake = try EventFD()
    }

    /// A loop for tests whose clock reads `start` until `advance(by:)` moves it; it is driven by
    /// `runPending()` and `advance(by:)` on the test's thread, never by `run()`.
    static func manual(at start: Duration = .seconds(1_000)) throws(LinuxError) -> EventLoop {
        let loop = try EventLoop()
        loop.manualNow = start
        return loop
    }

    /// Now: the time since boot on the monotonic clock (or the manual clock's reading).
    var now: Duration { manualNow ?? TimerFD.now() }

    /// Watches `fd` for `events`, replacing an earlier watch. Loop thread only.
    func watch(_ fd: Int32, events: Int16, handler: @escaping Handler) {
        assertOnLoop()
        sources[fd] = Source(events: events, handler: handler)
    }

    /// Changes the events watched on `fd` (for example adding `POLLOUT` while output is queued).
    func setEvents(_ fd: Int32, _ events: Int16) {
        assertOnLoop()
        sources[fd]?.events = events
    }

    /// Stops watching `fd` (the caller closes it).
    func unwatch(_ fd: Int32) {
        assertOnLoop()
        sources[fd] = nil
    }

    /// Runs `action` once at `deadline` (on `now`'s clock), replacing the timer of the same name; nil cancels it.
    func setTimer(_ name: LoopTimer, at deadline: Duration?, action: @escaping () -> Void = {}) {
        assertOnLoop()
        if let deadline {
            timers[name] = (deadline, action)
        } else {
            timers[name] = nil
        }
    }

    /// Runs `action` once, `delay` from now, replacing the timer of the same name.
    func setTimer(_ name: LoopTimer, after delay: Duration, action: @escaping () -> Void) {
        setTimer(name, at: now + delay, action: action)
    }

    /// When the timer of that name is due (nil: none is pending).
    func deadline(of name: LoopTimer) -> Duration? {
        assertOnLoop()
        return timers[name]?.deadline
    }

    /// Whether a timer of that name is pending.
    func hasTimer(_ name: LoopTimer) -> Bool {
        assertOnLoop()
        return timers[name] != nil
    }

    /// Traps in debug builds when called off the loop's thread once it runs: everything but `post` is the
    /// loop thread's (swift-nio's `preconditionInEventLoop`, MPD's `assert(thread.IsInside())`).
    func assertOnLoop(file: StaticString = #file, line: UInt = #line) {
        assert(
            owner.map { pthread_equal($0, pthread_self()) != 0 } ?? true, "off the event loop's thread", file: file,
            line: line)
    }

    /// Hands `work` to the loop thread from any thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        wake.signal()
    }

    /// Makes `run()` return after the current iteration. Loop thread only.
    func stop() {
        assertOnLoop()
        running = false
    }

    /// Polls until `stop()`. Call on the loop's own thread.
    func run() {
        owner = pthread_self()
        defer { owner = nil }
        running = true
        while running {
            armTimer()
            var fds = [
                pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            for (fd, source) in sources { fds.append(pollfd(fd: fd, events: source.events, revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                // poll cannot fail otherwise with valid arguments; avoid a hot loop anyway.
                usleep(10_000)
                continue
            }
            if fds[0].revents != 0 {
                wake.drain()
                runPosted()
            }
            if fds[1].revents != 0 { timer.acknowledge() }
            runDueTimers()
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                // A handler may have unwatched this descriptor (a closed client) in this same round.
                guard let source = sources[entry.fd] else { continue }
                source.handler(entry.revents)
                if !running { break }
            }
        }
    }

    // MARK: - The manual clock (tests)

    /// Runs what other threads posted and the timers due, until nothing more is (a manual loop's turn).
    func runPending() {
        assertOnLoop()
        while inbox.withLock({ !$0.isEmpty }) || timers.values.contains(where: { $0.deadline <= now }) {
            runPosted()
            runDueTimers()
        }
    }

    /// Moves the manual clock on by `duration`, stopping at each deadline on the way so that timers run at
    /// their own time and in order (a timer armed by another runs too, if it falls within).
    func advance(by duration: Duration) {
        guard let start = manualNow else { preconditionFailure("advance(by:) needs a loop made by manual(at:)") }
        let end = start + duration
        runPending()
        while let next = timers.values.map(\.deadline).min(), next <= end {
            manualNow = max(next, manualNow ?? next)
            runPending()
        }
        manualNow = end
        runPending()
    }

    // MARK: - Private

    private func runPosted() {
        let work = inbox.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        for item in work { item() }
    }

    private func runDueTimers() {
        let now = self.now
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (name, entry) in due {
            // Remove before running: the action may re-arm the same timer.
            if timers[name]?.deadline == entry.deadline { timers[name] = nil }
            entry.action()
        }
    }

    private func armTimer() {
        let next = timers.values.map(\.deadline).min()
        do {
            try timer.arm(at: next)
        } catch {
            // Settime fails only on invalid arguments; fall back to firing timers on the next wake-up.
        }
    }
}

/// The loop's timers, one of each at a time (setting one again replaces it).
enum LoopTimer: Hashable {
    /// The systemd watchdog's keep-alive.
    case watchdog
    /// Power off after so long idle; the bound on the goodbye before a power-off.
    case idlePowerOff, powerOff
    /// The sleep timer's next deadline: its end, a step of its fade, or the pause after it.
    case sleep
    /// Looking for the status light again (udev may bring it late); its blinking and a one-off flash.
    case lightOpen, light, lightFlash
    /// Looking for the button chip again; the buttons' gesture deadlines.
    case gpio, buttons
    /// The control clients' idle timeouts.
    case clients
    /// Reading the sound cards once a burst of device changes has settled.
    case outputsSettle
    /// The volume's ramp in at start.
    case ramp
}
