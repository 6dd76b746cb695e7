import Glibc
import LibLinux
import LibPThread

/// The daemon's control loop: one thread waiting in `poll(2)` on every descriptor that matters
/// (sockets, the mount table, the signal pipe, button sources), a `timerfd` armed only for the next
/// deadline, and an `eventfd` other threads use to hand it work. With nothing due it sleeps in the
/// kernel with no timeout.
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
    private var timers: [LoopTimer: (deadline: UInt64, action: () -> Void)] = [:]
    private let timer: TimerFD
    private let wake: EventFD
    private let inbox = PThreadMutex<[@Sendable () -> Void]>([])
    private var running = false
    /// The thread inside `run()`; until it starts, whoever builds the loop may set it up.
    private var owner: pthread_t?

    /// Creates the loop's timer and wake-up descriptors.
    init() throws(LinuxError) {
        timer = try TimerFD()
        wake = try EventFD()
    }

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

    /// Runs `action` once at `deadline` (monotonic ns), replacing the timer of the same name; nil cancels it.
    func setTimer(_ name: LoopTimer, at deadline: UInt64?, action: @escaping () -> Void = {}) {
        assertOnLoop()
        if let deadline {
            timers[name] = (deadline, action)
        } else {
            timers[name] = nil
        }
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
                let work = inbox.withLock { pending in
                    defer { pending.removeAll() }
                    return pending
                }
                for item in work { item() }
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

    private func runDueTimers() {
        let now = TimerFD.now()
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
            try timer.arm(atMonotonicNanoseconds: next)
        } catch {
            // Settime fails only on invalid arguments; fall back to firing timers on the next wake-up.
        }
    }
}

/// The loop's timers, one of each at a time (setting one again replaces it).
enum LoopTimer: Hashable {
    /// The systemd watchdog's keep-alive.
    case watchdog
    /// Power off after so long idle.
    case idlePowerOff
    /// The sleep timer's end, and the steps of its fade.
    case sleep, sleepFade
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
