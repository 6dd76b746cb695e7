internal import Glibc
import LibALSA
import LibMPG123
import Synchronization

/// The dedicated audio thread: decodes with libmpg123, applies the software volume and writes to ALSA.
///
/// It never awaits and never touches the cooperative pool: `snd_pcm_writei` blocks for at most about one
/// period, after which the thread looks at its mailbox, so a skip or pause is answered within ~20 ms. While
/// idle or paused it sleeps on the mailbox's semaphore (no periodic wake-ups). Events go back to the engine
/// through `events`, a non-blocking callback (an `AsyncStream` continuation in production).
public final class AudioThread: Sendable {
    private let mailbox = AudioMailbox()
    private let position = PositionBox()
    private let thread = Mutex<pthread_t?>(nil)

    /// Starts the thread. `events` is called on the audio thread; it must not block.
    public init(device: String, gain: Double, events: @escaping @Sendable (AudioEvent) -> Void) throws(MPG123Error) {
        let decoder = try MP3Decoder()
        let position = self.position
        let mailbox = self.mailbox
        let body = ThreadBody(
            run: { [decoder = Box(decoder)] in
                guard let decoder = decoder.take() else { return }
                var loop = AudioLoop(
                    decoder: decoder, deviceName: device, gain: gain, mailbox: mailbox, position: position,
                    events: events)
                loop.run()
            })
        var handle = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        let rc = pthread_create(
            &handle, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            preconditionFailure("pthread_create failed with \(rc)")
        }
        thread.withLock { $0 = handle }
    }

    /// The track being heard and how far into it, for the resume point.
    var heard: AudioPosition { position.current }

    /// Posts a command.
    func post(_ command: AudioCommand) { mailbox.post(command) }

    /// Waits for the thread to end (after `shutdown`). Blocks: call from a thread of its own or at exit.
    public func join() {
        guard
            let handle = thread.withLock({ value -> pthread_t? in
                let handle = value
                value = nil
                return handle
            })
        else { return }
        pthread_join(handle, nil)
    }
}

/// The closure a new pthread runs (a class so it can cross as a raw context pointer).
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Hands a non-copyable decoder to the new thread exactly once.
private final class Box: Sendable {
    // The decoder is created on the caller's thread (so its failure can be thrown there) and taken once by
    // the audio thread, which owns it from then on.
    private let slot: Mutex<MP3Decoder?>
    init(_ decoder: consuming MP3Decoder) { slot = Mutex(Optional(decoder)) }
    func take() -> MP3Decoder? { slot.withLock { value in value.take() } }
}
