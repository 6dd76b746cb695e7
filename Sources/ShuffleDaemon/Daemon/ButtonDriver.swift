import Buttons
import Glibc
import LibLinux
import ShuffleCore

/// The board's buttons inside the control loop: every source's descriptors are watched by the event
/// loop, edges go through the `GestureRecognizer`, and its next deadline arms the loop's timer (only
/// while a gesture is under way: idle buttons cost nothing). Gestures with an action reach the player.
final class ButtonDriver {
    private let loop: EventLoop
    private let board: BoardConfig
    private var recognizer: GestureRecognizer
    private var sources: [any ButtonSource]
    private let act: (ButtonAction) -> Void
    private let log: Log
    /// Scripted edges waiting for their time (from the test FIFO).
    private var pending: [ButtonEdge] = []

    /// Opens the board's sources (failures are logged; the others keep working) plus `extra` ones.
    init(
        loop: EventLoop, board: BoardConfig, extra: [any ButtonSource], log: Log, act: @escaping (ButtonAction) -> Void
    ) {
        self.loop = loop
        self.board = board
        self.log = log
        self.act = act
        recognizer = GestureRecognizer(board: board, start: loop.now)
        sources = []
        for source in extra { add(source) }
        switch board.source {
        case .gpio:
            openGPIO()
        case .input:
            do { add(try InputEventSource.open(board: board)) } catch { log.warning("buttons: \(error)") }
        }
    }

    /// Stops watching every source and cancels the gesture and chip timers (the sources close as they go).
    func stop() {
        for source in sources {
            for fd in source.fileDescriptors { loop.unwatch(fd) }
        }
        sources.removeAll()
        loop.setTimer(.gpio, at: nil)
        loop.setTimer(.buttons, at: nil)
    }

    private func add(_ source: any ButtonSource) {
        sources.append(source)
        for fd in source.fileDescriptors {
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in self.ready(source, fd) }
        }
        log.info("buttons: \(source.name) on board \(board.name)")
        // A level already active reports no edge until it ends: it is pressed from now on.
        let held = source.activeAtOpen().filter(\.isLevelSignal)
        guard !held.isEmpty else { return }
        for button in held {
            log.notice("buttons: the \(button.rawValue) line is already active; taking it as pressed from now on")
            perform(recognizer.handle(ButtonEdge(button, .press, at: loop.now)))
        }
        step()
    }

    /// Opens the board's GPIO chip. At boot the chip may not be handed to the gpio group yet (or its driver
    /// may still be probing): a chip refused or missing is tried again (`UdevWait`).
    private func openGPIO(_ wait: UdevWait? = nil) {
        let (gpio, errors) = GPIOButtonSource.open(board: board)
        if let gpio {
            add(gpio)
            if let wait { log.notice("buttons: GPIO chip opened after \(wait.elapsedMs(now: loop.now)) ms") }
            return
        }
        if errors.contains(where: \.transient) {
            var wait = wait ?? UdevWait(since: loop.now)
            if wait.attempt == 0 {
                log.notice(
                    "buttons: \(errors[0].source): \(errors[0].problem); trying again for 2 minutes "
                        + "(at boot udev may not have handed it over yet)")
            }
            if let at = wait.next(now: loop.now) {
                loop.setTimer(.gpio, at: at) { [unowned self] in self.openGPIO(wait) }
                return
            }
        }
        for error in errors { log.warning("buttons: \(error)") }
    }

    private func ready(_ source: any ButtonSource, _ fd: Int32) {
        do {
            let edges = try source.readEvents(ready: fd)
            if source is ScriptedButtonSource {
                pending += edges
                pending.sort { $0.time < $1.time }
            } else {
                for edge in edges { perform(recognizer.handle(edge)) }
            }
        } catch {
            log.warning("buttons: \(error)")
        }
        if source.isFinished {
            for fd in source.fileDescriptors { loop.unwatch(fd) }
            sources.removeAll { $0 === source }
        }
        step()
    }

    /// Feeds due scripted edges, lets the recogniser's timers run, and re-arms the loop timer.
    private func step() {
        let now = loop.now
        while let first = pending.first, first.time <= now {
            pending.removeFirst()
            perform(recognizer.handle(first))
        }
        perform(recognizer.advance(to: now))
        let next = [recognizer.nextDeadline, pending.first?.time].compactMap { $0 }.min()
        loop.setTimer(.buttons, at: next) { [unowned self] in self.step() }
    }

    private func perform(_ events: [GestureEvent]) {
        for event in events {
            log.debug("buttons: \(event)")
            if let action = event.action { act(action) }
        }
    }

    /// The board named in the configuration: a board name, or a path to a board file.
    static func loadBoard(_ config: DaemonConfig) throws(DaemonError) -> BoardConfig? {
        do {
            if let file = config.boardFile { return try BoardLocator.load(board: nil, config: file) }
            // A name only (ConfigParser checks it): never a path, so it cannot reach outside board/.
            if let name = config.board { return try BoardLocator.load(board: name, config: nil) }
            return nil
        } catch {
            throw DaemonError(
                config.boardFile.map { "board file \($0): \(error)" } ?? "board '\(config.board ?? "")': \(error)")
        }
    }
}

/// Button edges written to a FIFO as `MILLISECONDS BUTTON press|release` lines, the times counted from
/// when the lines arrive: the scripted source that drives the daemon's buttons in tests
/// (`SHUFFLEBOX_BUTTON_FIFO=PATH`), through the same recogniser and actions as real buttons.
final class ScriptedButtonSource: ButtonSource {
    let name: String
    private let fd: Int32
    private let board: BoardConfig
    private var partial: [UInt8] = []

    /// Creates the FIFO when missing and opens it read-write (so a writer closing never reports hang-up).
    init(path: String, board: BoardConfig) throws(DaemonError) {
        if access(path, F_OK) != 0 && mkfifo(path, 0o600) != 0 {
            throw DaemonError("cannot create the button FIFO \(path): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw DaemonError("cannot open the button FIFO \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.board = board
        name = "script \(path)"
    }

    deinit { close(fd) }

    var fileDescriptors: [Int32] { [fd] }
    var isFinished: Bool { false }

    func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return [] }
        partial += buffer.prefix(count)
        guard let lastNewline = partial.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: partial[...lastNewline], as: UTF8.self)
        partial.removeFirst(lastNewline + 1)
        let origin = MonotonicClock.now()
        do {
            return try ButtonScript.parse(text, file: name, board: board).map {
                ButtonEdge($0.button, $0.kind, at: origin + $0.time)
            }
        } catch {
            throw ButtonSourceError(source: name, problem: "\(error)", advice: "fix the script line")
        }
    }
}
