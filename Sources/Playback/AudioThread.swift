internal import Glibc
import LibALSA
import LibPThread

/// The dedicated audio thread: decodes each file with the library its content calls for (`DecoderSet`),
/// applies the software volume and writes to ALSA.
///
/// It never awaits and never touches the cooperative pool. While playing it sleeps until the device has room
/// for half its buffer or a command arrives, whichever is first, so a skip or pause is answered at once; while
/// idle or paused it sleeps on the mailbox alone (no periodic wake-ups). Events go back to the engine
/// through `events`, a non-blocking callback (an `AsyncStream` continuation in production).
public final class AudioThread: Sendable {
    private let mailbox: AudioMailbox
    /// Where the audio thread is (readable from any thread).
    let position = PositionBox()
    private let thread: PThread

    /// Starts the thread. `events` is called on the audio thread; it must not block.
    /// `formats` limits the device's sample formats (empty: any the device takes).
    init(
        device: String, formats: [PCMSampleFormat] = [], gain: Double, duckDecibels: Double = -15,
        events: @escaping @Sendable (AudioEvent) -> Void
    ) throws(DecodeFailure) {
        // Made here, so a decoder library that cannot start fails the engine before any thread exists.
        let decoders = try DecoderSet()
        do {
            mailbox = try AudioMailbox()
        } catch {
            throw DecodeFailure(
                description: "cannot make the audio thread's mailbox: \(error)", systemError: error.code)
        }
        let position = self.position
        let mailbox = self.mailbox
        thread = PThread.start(name: "shufflebox-audio") {
            var loop = AudioLoop(
                decoders: decoders, deviceName: device, formats: formats, gain: gain, duckDecibels: duckDecibels,
                mailbox: mailbox, position: position, events: events)
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
