internal import CALSA

/// An ALSA playback PCM, owned by the one thread that writes to it (the audio thread).
///
/// Samples are interleaved signed little-endian integers: 16-bit (`S16_LE`), or 32-bit words holding 32 or 24
/// significant bits (`S32_LE`, `S24_LE`), whichever `configure` was given. The period is about 20 ms (the writer
/// wakes up 50 times a second, which is also how often it looks at its mailbox) and the buffer about
/// 120 ms: enough to ride out a slow SD card read on a Pi, short enough that dropping it on a skip or a
/// pause is not noticed and a power cut loses little.
public struct PCMDevice: ~Copyable {
    /// The period asked for, in microseconds.
    public static let periodMicroseconds: UInt32 = 20_000
    /// The buffer asked for, in microseconds.
    public static let bufferMicroseconds: UInt32 = 120_000

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

    /// Sets S16_LE interleaved at exactly `sampleRate` and `channels`, a ~20 ms period and a ~120 ms
    /// buffer, and prepares the device. Playback starts as soon as one period is queued: a higher start
    /// threshold can deadlock plugins whose writable space after a drop is less than the threshold (ALSA's
    /// pulse plugin does this), and the decoder refills far faster than real time anyway.
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
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", name)
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name)
        configuration = PCMConfiguration(
            sampleRate: sampleRate, channels: channels, periodFrames: Int(periodFrames),
            bufferFrames: Int(bufferFrames), canPause: canPause, format: format)
    }

    /// Writes up to `frames` frames of `samples` (interleaved) starting at frame `offset`, and returns how many
    /// the device took. When the buffer is full it waits for room once, for at most two periods, so the
    /// caller regains control at least that often (the audio thread reads its mailbox in between).
    /// Underruns (`-EPIPE`) and suspends (`-ESTRPIPE`) are recovered here; only a device that is gone or
    /// refuses throws. Wraps `snd_pcm_writei`, `snd_pcm_wait` and `snd_pcm_recover`.
    public mutating func write(_ samples: [Int16], offset: Int = 0, frames: Int) throws(ALSAError) -> Int {
        precondition(configuration?.format == .s16, "16-bit samples to a device not set up for S16_LE")
        let outcome: Result<Int, ALSAError> = samples.withUnsafeBytes { bytes in
            do throws(ALSAError) { return .success(try write(bytes, offset: offset, frames: frames)) } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Writes 32-bit words (`S32_LE` or `S24_LE`, as configured); otherwise as `write(_:offset:frames:)` for
    /// 16-bit samples.
    public mutating func write(_ samples: [Int32], offset: Int = 0, frames: Int) throws(ALSAError) -> Int {
        precondition(configuration?.format != .s16, "32-bit words to a device set up for S16_LE")
        let outcome: Result<Int, ALSAError> = samples.withUnsafeBytes { bytes in
            do throws(ALSAError) { return .success(try write(bytes, offset: offset, frames: frames)) } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private mutating func write(_ samples: UnsafeRawBufferPointer, offset: Int, frames: Int) throws(ALSAError) -> Int {
        guard let configuration else { preconditionFailure("PCMDevice.write before configure") }
        let frameBytes = configuration.channels * configuration.format.bytesPerSample
        precondition((offset + frames) * frameBytes <= samples.count, "PCMDevice.write past the buffer")
        let waitMilliseconds = Int32(max(10, 2 * configuration.periodFrames * 1000 / configuration.sampleRate))
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
                if snd_pcm_wait(pcm, waitMilliseconds) == 0,
                    snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED
                {
                    // A prepared stream below its start threshold that cannot take more: start it.
                    _ = snd_pcm_start(pcm)
                }
                continue
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
