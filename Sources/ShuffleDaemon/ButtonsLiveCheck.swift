import Buttons
@preconcurrency import Dispatch
import Glibc
import LibPThread
import ShuffleCore

/// The live half of `shufflebox buttons`: the board's sources (and the keyboard on a terminal),
/// a poll loop on its own thread that sleeps until an edge or the recogniser's next deadline,
/// and Ctrl-C to end.
enum ButtonsLiveCheck {
    static func run(board: BoardConfig, options: ButtonsOptions) async -> Int32 {
        await withCheckedContinuation { continuation in
            PThread.startDetached(name: "shufflebox.buttons") {
                continuation.resume(returning: loop(board: board, options: options))
            }
        }
    }

    /// Opens the sources the board asks for; failures are printed and the others keep working.
    static func openSources(board: BoardConfig) -> [any ButtonSource] {
        var sources: [any ButtonSource] = []
        switch board.source {
        case .gpio:
            let (gpio, errors) = GPIOButtonSource.open(board: board)
            for error in errors { Terminal.error("shufflebox buttons: \(error)") }
            if let gpio { sources.append(gpio) }
        case .input:
            do { sources.append(try InputEventSource.open(board: board)) } catch {
                Terminal.error("shufflebox buttons: \(error)")
            }
        }
        if isatty(0) == 1 {
            let longestDebounce = board.buttons.map(\.timing.debounce).max() ?? .zero
            sources.append(KeyboardSource(pressLength: longestDebounce + .milliseconds(40)))
        }
        return sources
    }

    static func loop(board: BoardConfig, options: ButtonsOptions) -> Int32 {
        var sources = openSources(board: board)
        defer { for case let keyboard as KeyboardSource in sources { keyboard.restore() } }
        guard !sources.isEmpty else {
            Terminal.error(
                "shufflebox buttons: no button source works (see above); use --script FILE to check a configuration")
            return ExitCode.unavailable
        }
        let stop = StopPipe()
        let start = MonotonicClock.now()
        var recognizer = GestureRecognizer(board: board, start: start)
        let report = ButtonReport(json: options.json, origin: start)
        let voice = options.speak ? GestureVoice(board: board, device: options.device) : nil
        defer { voice?.finish() }
        Terminal.error(
            "shufflebox buttons: listening on \(sources.map(\.name).joined(separator: " and "))"
                + (sources.contains { $0 is KeyboardSource }
                    ? " (keys: space play, n next, p previous, + -, q quits)" : "")
                + "; Ctrl-C ends")
        while true {
            var polled = [pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
            for source in sources {
                for fd in source.fileDescriptors { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            var timeout: Int32 = -1
            if let deadline = recognizer.nextDeadline {
                let ms = DurationText.milliseconds(deadline - MonotonicClock.now() + .microseconds(999))
                timeout = Int32(clamping: max(0, ms))
            }
            let ready = poll(&polled, nfds_t(polled.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if polled[0].revents != 0 { break }
            var lines: [String] = []
            for entry in polled.dropFirst() where entry.revents != 0 {
                guard let source = sources.first(where: { $0.fileDescriptors.contains(entry.fd) }) else { continue }
                do {
                    for edge in try source.readEvents(ready: entry.fd) {
                        if options.raw { lines.append(report.line(for: edge)) }
                        let events = recognizer.handle(edge)
                        lines += events.map(report.line(for:))
                        for event in events { voice?.say(event) }
                    }
                } catch {
                    Terminal.error("shufflebox buttons: \(error)")
                }
            }
            let due = recognizer.advance(to: MonotonicClock.now())
            lines += due.map(report.line(for:))
            for event in due { voice?.say(event) }
            if !lines.isEmpty { Terminal.write(lines.joined(separator: "\n") + "\n") }
            if sources.contains(where: { ($0 as? KeyboardSource)?.quitRequested == true }) { break }
            sources.removeAll { $0.isFinished }
            if sources.isEmpty { break }
        }
        return ExitCode.success
    }
}

/// SIGINT and SIGTERM, turned into a readable pipe the poll loop waits on.
final class StopPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let sources: [any DispatchSourceSignal]

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
        let write = ends[1]
        sources = [SIGINT, SIGTERM].map { number in
            // Ignore the default action first so the signal cannot kill us before the source is armed.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { _ = Glibc.write(write, "x", 1) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
        close(readEnd)
        close(writeEnd)
    }
}
