import LibALSA
import LibPThread

/// Says phrases straight to an ALSA device when no music plays (no engine, so no audio thread to mix into):
/// for the daemon between sticks and for `shufflebox say`. Each phrase runs on a thread of its own that
/// opens the device at the phrase's rate, mono, writes it period by period, plays it out and closes the
/// device, so the device is free again for the music.
public final class SpeechOutput: Sendable {
    private let device: String
    /// The phrase under way: its id and whether it was asked to stop.
    private let current = PThreadMutex<(id: UInt64, stop: Bool)?>(nil)
    private let threads = PThreadMutex<[PThread]>([])

    /// Creates an output on the ALSA PCM `device`.
    public init(device: String) { self.device = device }

    /// Says `clip` (cutting off the phrase under way); `started` is called on the phrase's thread when its
    /// first samples were handed to ALSA, `ended` with nil when it was said to the end, or the device's
    /// error. Returns at once.
    public func say(
        _ clip: SpeechClip, started: @escaping @Sendable (ContinuousClock.Instant) -> Void = { _ in },
        ended: @escaping @Sendable (ALSAError?) -> Void = { _ in }
    ) {
        stop()
        current.withLock { $0 = (clip.id, false) }
        let device = self.device
        let current = self.current
        let thread = PThread.start(name: "shufflebox-say") {
            let result = Self.play(clip, device: device, started: started) {
                current.withLock { $0?.id != clip.id || $0?.stop == true }
            }
            current.withLock { if $0?.id == clip.id { $0 = nil } }
            ended(result)
        }
        threads.withLock { $0.append(thread) }
    }

    /// Stops the phrase under way and waits until its thread has closed the device.
    public func stop() {
        current.withLock { $0?.stop = true }
        wait()
    }

    /// Waits until the phrase under way has been said.
    public func wait() {
        let running = threads.withLock { list -> [PThread] in
            defer { list = [] }
            return list
        }
        for thread in running { thread.join() }
    }

    /// Plays `clip` to its end unless `cancelled` says otherwise between periods; returns the device's error.
    public static func play(
        _ clip: SpeechClip, device: String, started: (ContinuousClock.Instant) -> Void = { _ in },
        cancelled: () -> Bool
    ) -> ALSAError? {
        do throws(ALSAError) {
            var pcm = try PCMDevice(name: device)
            try pcm.configure(sampleRate: clip.sampleRate, channels: 1)
            let period = max(64, pcm.configuration?.periodFrames ?? 1024)
            var mix = SpeechMix(duckDecibels: 0)
            mix.setSampleRate(clip.sampleRate)
            mix.start(clip.samples, sampleRate: clip.sampleRate, gain: clip.gain)
            var buffer = [Int16](repeating: 0, count: period)
            var first = true
            while mix.isSpeaking && !cancelled() {
                for index in buffer.indices { buffer[index] = 0 }
                _ = mix.mix(into: &buffer, frames: period, channels: 1)
                try pcm.writeAll(buffer, frames: period)
                if first {
                    first = false
                    started(.now)
                }
            }
            if cancelled() { try pcm.drop() } else { try pcm.drain() }
            return nil
        } catch {
            return error
        }
    }
}
