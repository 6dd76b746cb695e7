internal import CEBUR128

/// An EBU R128 meter for one stream: integrated loudness (gated, LUFS) and true peak, from interleaved
/// integer samples. Wraps libebur128's `ebur128_state`. Owned by one thread (`~Copyable`).
public struct LoudnessMeter: ~Copyable {
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Channels per frame.
    public private(set) var channels: Int
    /// Frames per second.
    public private(set) var sampleRate: Int

    /// Sets a meter up for `channels` at `sampleRate`, measuring integrated loudness and true peak. Wraps
    /// `ebur128_init` with `EBUR128_MODE_I | EBUR128_MODE_TRUE_PEAK`.
    public init(channels: Int, sampleRate: Int) throws(EBUR128Error) {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard channels > 0, sampleRate > 0,
            let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode)
        else { throw EBUR128Error(function: "ebur128_init", code: Int32(EBUR128_ERROR_NOMEM.rawValue)) }
        self.state = state
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit {
        var state = self.state
        ebur128_destroy(&state)
    }

    /// Starts over with another shape (a stream that changes mid-way): what was measured so far is lost, so
    /// the result covers the part after the change. Wraps `ebur128_change_parameters`.
    public mutating func change(channels: Int, sampleRate: Int) throws(EBUR128Error) {
        let rc = ebur128_change_parameters(state, UInt32(channels), UInt(sampleRate))
        if rc != Int32(EBUR128_ERROR_NO_CHANGE.rawValue) { try check(rc, "ebur128_change_parameters") }
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Adds the first `frames` frames of interleaved 16-bit samples. Wraps `ebur128_add_frames_short`.
    public mutating func add(_ samples: [Int16], frames: Int) throws(EBUR128Error) {
        precondition(frames * channels <= samples.count, "more frames than samples")
        let rc = samples.withUnsafeBufferPointer { ebur128_add_frames_short(state, $0.baseAddress, frames) }
        try check(rc, "ebur128_add_frames_short")
    }

    /// Adds the first `frames` frames of interleaved 32-bit samples (full scale at `Int32.max`, so 24-bit
    /// audio left-justified). Wraps `ebur128_add_frames_int`.
    public mutating func add(_ samples: [Int32], frames: Int) throws(EBUR128Error) {
        precondition(frames * channels <= samples.count, "more frames than samples")
        let rc = samples.withUnsafeBufferPointer { ebur128_add_frames_int(state, $0.baseAddress, frames) }
        try check(rc, "ebur128_add_frames_int")
    }

    /// The gated integrated loudness so far, in LUFS (−infinity for silence). Wraps `ebur128_loudness_global`.
    public func integratedLoudness() throws(EBUR128Error) -> Double {
        var value = 0.0
        try check(ebur128_loudness_global(state, &value), "ebur128_loudness_global")
        return value
    }

    /// The largest true peak over the channels so far (1.0 = full scale). Wraps `ebur128_true_peak`.
    public func truePeak() throws(EBUR128Error) -> Double {
        var peak = 0.0
        for channel in 0..<channels {
            var value = 0.0
            try check(ebur128_true_peak(state, UInt32(channel), &value), "ebur128_true_peak")
            peak = max(peak, value)
        }
        return peak
    }
}
