internal import Glibc
import LibALSA
import LibMPG123
import LibPThread

/// The dedicated audio thread: decodes with libmpg123, applies the software volume and writes to ALSA.
///
/// It never awaits and never touches the cooperative pool: `snd_pcm_writei` blocks for at most about one
/// period, after which the thread looks at its mailbox, so a skip or pause is answered within ~20 ms. While
/// idle or paused it sleeps on the mailbox's semaphore (no periodic wake-ups). Events go back to the engine
/// through `events`, a non-blocking callback (an `AsyncStream` continuation in production).
public final class AudioThread: Sendable {
    private let mailbox = AudioMailbox()
    private let position = PositionBox()
    private let thread: PThread

    /// Starts the thread. `events` is called on the audio thread; it must not block.
    public init(
        device: String, gain: Double, duckDecibels: Double = -15, events: @escaping @Sendable (AudioEvent) -> Void
    ) throws(MPG123Error) {
        let decoder = try MP3Decoder()
        let position = self.position
        let mailbox = self.mailbox
        thread = PThread.start(name: "shufflebox-audio") { [decoder = Box(decoder)] in
            guard let decoder = decoder.take() else { return }
            var loop = AudioLoop(
                decoder: decoder, deviceName: device, gain: gain, duckDecibels: duckDecibels, mailbox: mailbox,
                position: position,
                events: events)
            loop.run()
        }
    }

    /// The track being heard and how far into it, for the resume point.
    var heard: AudioPosition { position.current }

    /// Posts a command.
    func post(_ command: AudioCommand) { mailbox.post(command) }

    /// Waits for the thread to end (after `shutdown`). Blocks: call from a thread of its own or at exit.
    public func join() { thread.join() }
}

/// Hands a non-copyable decoder to the new thread exactly once.
private final class Box: Sendable {
    // The decoder is created on the caller's thread (so its failure can be thrown there) and taken once by
    // the audio thread, which owns it from then on.
    private let slot: PThreadMutex<MP3Decoder?>
    init(_ decoder: consuming MP3Decoder) { slot = PThreadMutex(Optional(decoder)) }
    func take() -> MP3Decoder? { slot.withLock { value in value.take() } }
}
