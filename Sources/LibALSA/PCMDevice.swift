internal import CALSA
internal import Glibc

/// An ALSA playback PCM, owned by the one thread that writes to it (the audio thread).
///
/// Samples are interleaved signed little-endian integers: 16-bit (`S16_LE`), or 32-bit words holding 32 or 24
/// significant bits (`S32_LE`, `S24_LE`), whichever `configure` was given. The buffer is about 240 ms in
/// periods of about 60 ms, and the writer is woken only when half of it is free: a box on a battery pays for
/// every wake-up, and each write then tops up two periods (about 8 wake-ups a second). At every wake-up 120 ms
/// are still queued, enough to ride out a slow SD card read on a Pi. A skip or a pause drops the buffer, so
/// they are not delayed by it; a change of the software volume is heard within one buffer.
public struct PCMDevice: ~Copyable {
    /// The period asked for, in microseconds.
    public static let periodMicroseconds: UInt32 = 60_000
    /// The buffer asked for, in microseconds.
    public static let bufferMicroseconds: UInt32 = 240_000

    private let pcm: OpaquePointer
    /// The PCM name it was opened with.
    public let name: String
    /// What the device agreed to; nil until `configure` succeeds.
    public private(set) var configuration: PCMConfiguration?

    /// Opens the playback PCM `name` (`default`, `hw:1,0`, `plughw:…`, `dmix`, a name from asound.conf).
    /// Wraps `snd_pcm_open`.
    ///
    /// The PCM is opened non-blocking and `write` waits itself with `snd_pcm_wait` and a timeout: a blocking
    /// `snd_pcm_writei` polls with no timeout, and ALSA's pulse plugin can miss the wake-up after a drop,
    /// which would hang the audio thread (seen with alsa-plugins 1.2.7 behind a PulseAudio null sink).
    public init(name: String) throws(ALSAError) {
        var opened: OpaquePointer?
        try check(
            snd_pcm_open(&opened, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK), "snd_pcm_open", name)
        guard let opened else { throw ALSAError(code: ENODEV, function: "snd_pcm_open", device: name) }
        pcm = opened
        self.name = name
    }

    deinit { snd_pcm_close(pcm) }

    /// Sets S16_LE interleaved at exactly `sampleRate` and `channels`, a ~60 ms period and a ~240 ms
    /// buffer, and prepares the device. Playback starts as soon as one period is queued: a higher start
    /// threshold can deadlock plugins whose writable space after a drop is less than the threshold (ALSA's
    /// pulse plugin does this), and the decoder refills far faster than real time anyway. A waiting writer is
    /// woken when half the buffer is free (`avail_min`), not at every period.
    /// Wraps `snd_pcm_hw_params` and `snd_pcm_sw_params`.
    public mutating func configure(sampleRate: Int, channels: Int) throws(ALSAError) {
        try configure(sampleRate: sampleRate, channels: channels, format: .s16)
    }

    /// The sample formats of `candidates` the device accepts (in their order), before any configuration.
    /// Wraps `snd_pcm_hw_params_any` and `snd_pcm_hw_params_test_format`.
    public func acceptedFormats(_ candidates: [PCMSampleFormat]) -> [PCMSampleFormat] {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) >= 0, let hw else { return [] }
        defer { snd_pcm_hw_params_free(hw) }
        guard snd_pcm_hw_params_any(pcm, hw) >= 0 else { return [] }
        return candidates.filter { snd_pcm_hw_params_test_format(pcm, hw, $0.alsa) == 0 }
    }

    /// Sets `format` interleaved at exactly `sampleRate` and `channels` (see `configure(sampleRate:channels:)`).
    public mutating func configure(sampleRate: Int, channels: Int, format: PCMSampleFormat) throws(ALSAError) {
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc", name)
        guard let hw else { throw ALSAError(code: ENOMEM, function: "snd_pcm_hw_params_malloc", device: name) }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any", name)
        try check(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access",
            name)
        try check(snd_pcm_hw_params_set_format(pcm, hw, format.alsa), "snd_pcm_hw_params_set_format", name)
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(channels)), "snd_pcm_hw_params_set_channels", name)
        try check(snd_pcm_hw_params_set_rate(pcm, hw, UInt32(sampleRate), 0), "snd_pcm_hw_params_set_rate", name)
        var period = PCMDevice.periodMicroseconds
        var buffer = PCMDevice.bufferMicroseconds
        var direction: Int32 = 0
        try check(
            snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer, &direction),
            "snd_pcm_hw_params_set_buffer_time_near", name)
        try check(
            snd_pcm_hw_params_set_period_time_near(pcm, hw, &period, &direction),
            "snd_pcm_hw_params_set_period_time_near", name)
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params", name)
        var periodFrames: snd_pcm_uframes_t = 0
        var bufferFrames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_period_size(hw, &periodFrames, &direction), "get_period_size", name)
        try check(snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames), "get_buffer_size", name)
        let canPause = snd_pcm_hw_params_can_pause(hw) == 1

        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc", name)
        guard let sw else { throw ALSAError(code: ENOMEM, function: "snd_pcm_sw_params_malloc", device: name) }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current", name)
        try check(
            snd_pcm_sw_params_set_start_threshold(pcm, sw, periodFrames),
            "snd_pcm_sw_params_set_start_threshold", name)
        let wakeAt = max(periodFrames, bufferFrames / 2)
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, wakeAt), "snd_pcm_sw_params_set_avail_min", name)
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", name)
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name)
        configuration = PCMConfiguration(
            sampleRate: sampleRate, channels: channels, periodFrames: Int(periodFrames),
            bufferFrames: Int(bufferFrames), canPause: canPause, format: format)
    }

    /// Writes up to `frames` frames of `samples` (interleaved) starting at frame `offset`, and returns how many
    /// the device took. When the buffer is full it waits once for room (half the buffer free), for at most
    /// the buffer's length, so the caller regains control at least that often. With `wakeOn`, a descriptor
    /// that becomes readable (the audio thread's mailbox) ends the wait at once: a command is never held up
    /// by the buffer. Underruns (`-EPIPE`) and suspends (`-ESTRPIPE`) are recovered here; only a device that
    /// is gone or refuses throws. Wraps `snd_pcm_writei`, `snd_pcm_poll_descriptors` and `snd_pcm_recover`.
    public mutating func write(
        _ samples: [Int16], offset: Int = 0, frames: Int, wakeOn: Int32? = nil
    ) throws(ALSAError) -> Int {
        precondition(configuration?.format == .s16, "16-bit samples to a device not set up for S16_LE")
        let outcome: Result<Int, ALSAError> = samples.withUnsafeBytes { bytes in
            do throws(ALSAError) {
                return .success(try write(bytes, offset: offset, frames: frames, wakeOn: wakeOn))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Writes 32-bit words (`S32_LE` or `S24_LE`, as configured); otherwise as `write(_:offset:frames:)` for
    /// 16-bit samples.
    public mutating func write(
        _ samples: [Int32], offset: Int = 0, frames: Int, wakeOn: Int32? = nil
    ) throws(ALSAError) -> Int {
        precondition(configuration?.format != .s16, "32-bit words to a device set up for S16_LE")
        let outcome: Result<Int, ALSAError> = samples.withUnsafeBytes { bytes in
            do throws(ALSAError) {
                return .success(try write(bytes, offset: offset, frames: frames, wakeOn: wakeOn))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private mutating func write(
        _ samples: UnsafeRawBufferPointer, offset: Int, frames: Int, wakeOn: Int32?
    ) throws(ALSAError) -> Int {
        guard let configuration else { preconditionFailure("PCMDevice.write before configure") }
        let frameBytes = configuration.channels * configuration.format.bytesPerSample
        precondition((offset + frames) * frameBytes <= samples.count, "PCMDevice.write past the buffer")
        let waitMilliseconds = Int32(max(10, configuration.bufferFrames * 1000 / configuration.sampleRate))
        var written = 0
        var recoveries = 0
        var waited = false
        while written < frames {
            let start = (offset + written) * frameBytes
            let rc = snd_pcm_writei(pcm, samples.baseAddress! + start, snd_pcm_uframes_t(frames - written))
            if rc >= 0 {
                written += Int(rc)
                recoveries = 0
                if rc == 0 && waited { break }
                continue
            }
            let error = Int32(rc)
            if error == -EAGAIN || error == -EINTR {
                if waited { break }
                waited = true
                switch waitForRoom(milliseconds: waitMilliseconds, wakeOn: wakeOn) {
                case .room: continue
                case .woken: return written
                case .timedOut:
                    // A prepared stream below its start threshold that cannot take more: start it.
                    if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { _ = snd_pcm_start(pcm) }
                    continue
                }
            }
            recoveries += 1
            // snd_pcm_recover handles -EPIPE (underrun), -ESTRPIPE (suspend) and -EINTR; anything else, or a
            // recovery that keeps failing, means the device is in trouble the caller must hear about.
            guard recoveries <= 3, snd_pcm_recover(pcm, error, 1) >= 0 else {
                throw ALSAError(code: -error, function: "snd_pcm_writei", device: name)
            }
        }
        return written
    }

    private enum WaitOutcome { case room, woken, timedOut }

    /// Sleeps until the device wants samples (or reports an error, which the next write meets), `wakeOn` is
    /// readable, or `milliseconds` pass.
    ///
    /// A running stream is slept on by its own count: until half the buffer is left to play, by
    /// `snd_pcm_delay`. Plugins wake a poller at each of their periods whatever `avail_min` says (ALSA's
    /// pulse plugin at each server request, dmix at each period of its card), which would wake the thread
    /// several times as often for nothing. Otherwise it is what `snd_pcm_wait` does, with one more descriptor,
    /// sleeping through a plugin's wake-ups that leave no room.
    private func waitForRoom(milliseconds: Int32, wakeOn: Int32?) -> WaitOutcome {
        if let configuration, snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING {
            var queued: snd_pcm_sframes_t = 0
            if snd_pcm_delay(pcm, &queued) == 0 {
                let early = (Int(queued) - configuration.bufferFrames / 2) * 1000 / configuration.sampleRate
                if early >= 5 {
                    var slot = pollfd(fd: wakeOn ?? -1, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&slot, 1, Int32(min(early, Int(milliseconds))))
                    return ready > 0 && slot.revents != 0 ? .woken : .room
                }
            }
        }
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count > 0 else { return snd_pcm_wait(pcm, milliseconds) == 0 ? .timedOut : .room }
        let deadline = PCMDevice.monotonicMilliseconds() + Int64(milliseconds)
        let pcm = self.pcm
        // The device's descriptors and one more for `wakeOn`, on the stack (a wait allocates nothing).
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: count + 1) { slots -> WaitOutcome in
            let filled = snd_pcm_poll_descriptors(pcm, slots.baseAddress, UInt32(count))
            guard filled > 0 else { return snd_pcm_wait(pcm, milliseconds) == 0 ? .timedOut : .room }
            var watched = Int(filled)
            if let wakeOn {
                slots[watched] = pollfd(fd: wakeOn, events: Int16(POLLIN), revents: 0)
                watched += 1
            }
            while true {
                let left = deadline - PCMDevice.monotonicMilliseconds()
                guard left > 0 else { return .timedOut }
                let ready = poll(slots.baseAddress, nfds_t(watched), Int32(left))
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { return ready == 0 ? .timedOut : .room }
                if wakeOn != nil && slots[watched - 1].revents != 0 { return .woken }
                var events: UInt16 = 0
                guard snd_pcm_poll_descriptors_revents(pcm, slots.baseAddress, UInt32(filled), &events) >= 0 else {
                    return .room
                }
                if events & UInt16(POLLOUT | POLLERR | POLLNVAL) != 0 { return .room }
            }
        }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Writes all `frames` frames of `samples`, however long the device takes. Wraps `snd_pcm_writei`.
    public mutating func writeAll(_ samples: [Int16], frames: Int) throws(ALSAError) {
        var done = 0
        while done < frames { done += try write(samples, offset: done, frames: frames - done) }
    }

    /// Writes all `frames` frames of 32-bit words, however long the device takes. Wraps `snd_pcm_writei`.
    public mutating func writeAll(_ samples: [Int32], frames: Int) throws(ALSAError) {
        var done = 0
        while done < frames { done += try write(samples, offset: done, frames: frames - done) }
    }

    /// Stops at once, discarding what is buffered, and prepares for new samples. Wraps `snd_pcm_drop` and
    /// `snd_pcm_prepare`.
    public mutating func drop() throws(ALSAError) {
        _ = snd_pcm_drop(pcm)
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name)
    }

    /// Plays what is buffered to the end, then prepares for new samples. Wraps `snd_pcm_drain`.
    public mutating func drain() throws(ALSAError) {
        // Non-blocking drain returns -EAGAIN at once; drain is the one call that must wait to the end.
        snd_pcm_nonblock(pcm, 0)
        defer { snd_pcm_nonblock(pcm, 1) }
        let rc = snd_pcm_drain(pcm)
        if rc < 0 && rc != -EPIPE { throw ALSAError(code: -rc, function: "snd_pcm_drain", device: name) }
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name)
    }

    /// Makes the device ready after a stop. Wraps `snd_pcm_prepare`.
    public mutating func prepare() throws(ALSAError) {
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name)
    }

    /// Frames written but not yet heard (0 when the device cannot tell). Wraps `snd_pcm_delay`.
    public func delay() -> Int {
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) >= 0 else { return 0 }
        return max(0, Int(frames))
    }

    /// Pauses or resumes in place when the hardware can (`configuration.canPause`); otherwise pausing drops
    /// the buffer and resuming prepares. Returns whether the buffered audio was kept. Wraps `snd_pcm_pause`.
    @discardableResult
    public mutating func pause(_ paused: Bool) throws(ALSAError) -> Bool {
        if configuration?.canPause == true, snd_pcm_pause(pcm, paused ? 1 : 0) >= 0 { return true }
        if paused { try drop() } else { try prepare() }
        return false
    }
}
