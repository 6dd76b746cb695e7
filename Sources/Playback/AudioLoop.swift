import LibALSA
import Synchronization

/// The state and steps of the audio thread's loop; owned by that thread alone (`~Copyable`, like the PCM it
/// holds). It knows no file format: `DecoderSet` picks a decoder for each file by its content, and samples
/// arrive at the file's own depth (16-bit, or 32-bit words for deeper files).
///
/// Depth: a 16-bit stream goes to an `S16_LE` device untouched; a deeper one to `S32_LE` (or `S24_LE`) with
/// every bit, the software volume applied in 32 bits; only a device that takes nothing but `S16_LE` gets it
/// rounded to 16 bits (`SampleConversion`). A device already set up for 32-bit words keeps them for a 16-bit
/// track that follows (exactly representable), so such a change of depth never drains the device.
///
/// Format changes: when the next track (or a stream mid-way) has another sample rate or channel count, the
/// buffered audio is drained and the PCM is configured again for the new format. Converting instead would
/// need a resampler in the player (libmpg123's is crude) and would stop a `hw:` DAC from playing each file
/// at its own rate; ALSA's `plug`/`default` PCMs already convert when the hardware cannot follow.
struct AudioLoop: ~Copyable {
    private let decoders: DecoderSet
    /// The decoder of the current track (one of `decoders`).
    private var decoder: (any TrackDecoder)?
    private var device: PCMDevice?
    private var deviceName: String
    /// The sample formats the device may be set up for, in no particular order (the loop ranks them).
    private let allowedFormats: [PCMSampleFormat]
    /// The device's sample format.
    private var deviceFormat: PCMSampleFormat = .s16
    private let mailbox: AudioMailbox
    private let position: PositionBox
    private let events: @Sendable (AudioEvent) -> Void
    private var volume: VolumeStage
    /// The volume's gain (from `gain` commands; 1 with a hardware mixer) and the current track's loudness
    /// gain: `volume` applies their product.
    private var volumeGain: Double
    private var trackLoudness = 1.0
    /// One period of interleaved samples, reused for every read (resized only when the format changes).
    private var buffer = SampleBuffer()
    /// The period converted for the device when its sample format is not the stream's.
    private var converted16: [Int16] = []
    private var converted32: [Int32] = []
    /// Which array holds the samples to write.
    private var pending: PendingSamples = .narrow
    private var periodFrames = 1024

    // The current track.
    private var token: UInt64 = 0
    private var playing = false
    private var paused = false
    /// The stream's shape, as the device was set up for it.
    private var format: StreamFormat?
    /// Frames of the current track written to the device, counted from the track's start.
    private var framesOut = 0
    private var startFrame = 0
    private var announced = true
    private var requestedAt = ContinuousClock.now
    private var pausedAtFrame = 0
    private var queued: QueuedTrack?
    /// Frames of `buffer` decoded and ready, and how many of them the device has taken.
    private var bufferedFrames = 0
    private var bufferWritten = 0
    /// Speech over the music, or over silence while paused or idle.
    private var speech: SpeechMix
    private var speechID: UInt64 = 0
    /// Whether the phrase's first samples are yet to reach the device (for `speechStarted`).
    private var speechUnheard = false
    /// Whether `buffer` holds a period of silence with speech on it (not music), and whether the phrase ended
    /// within that period (reported once the period is all written).
    private var overSilence = false
    private var phraseEndsInPeriod = false
    /// Whether part of a period of speech over silence is still to be written.
    private var silenceLeft: Bool { overSilence && bufferWritten < bufferedFrames }

    init(
        decoders: DecoderSet, deviceName: String, formats: [PCMSampleFormat], gain: Double, duckDecibels: Double,
        mailbox: AudioMailbox, position: PositionBox, events: @escaping @Sendable (AudioEvent) -> Void
    ) {
        speech = SpeechMix(duckDecibels: duckDecibels)
        self.decoders = decoders
        self.deviceName = deviceName
        allowedFormats = formats.isEmpty ? PCMSampleFormat.allCases : formats
        self.mailbox = mailbox
        self.position = position
        self.events = events
        volume = VolumeStage(gain: gain, sampleRate: 44_100)
        volumeGain = gain
    }

    /// Runs until a `shutdown` command.
    mutating func run() {
        while true {
            if (!playing || paused) && !speech.isActive && !silenceLeft { mailbox.wait() }
            for command in mailbox.take() where !handle(command) { return }
            if playing && !paused {
                step()
            } else if speech.isActive || silenceLeft {
                speakOverSilence()
            }
        }
    }

    // MARK: - Commands

    /// Carries out one command; returns false when the thread should end.
    private mutating func handle(_ command: AudioCommand) -> Bool {
        switch command {
        case .start(let token, let path, let positionMs, let paused, let cut, let requestedAt, let loudness):
            start(token: token, path: path, positionMs: positionMs, paused: paused, cut: cut, requestedAt: requestedAt)
            // After the old track's last period went out (`start` plays it out unless cut): the new level
            // applies from the new track's first sample.
            trackLoudness = loudness
            volume.setGain(volumeGain * loudness, ramp: false)
        case .queue(let next):
            if let next, next.after != token { return true }
            queued = next
            if let next { decoders.prepare(path: next.path) }
        case .pause:
            guard !paused else { return true }
            paused = true
            if playing {
                pausedAtFrame = max(0, framesOut - currentDelay())
                publish(frame: pausedAtFrame)
            } else {
                publishPaused()
            }
            try? device?.drop()
            discardBuffered()
        case .resume:
            guard paused else { return true }
            paused = false
            if playing {
                let landed = (try? decoder?.seek(toFrame: pausedAtFrame)) ?? pausedAtFrame
                framesOut = landed
                publish(frame: framesOut)
            } else {
                publishPaused()
            }
        case .gain(let gain, let ramp):
            volumeGain = gain
            volume.setGain(gain * trackLoudness, ramp: ramp)
        case .speak(let clip):
            speechID = clip.id
            speech.setSampleRate(format?.sampleRate ?? clip.sampleRate)
            speech.start(clip.samples, sampleRate: clip.sampleRate, gain: clip.gain)
            speechUnheard = speech.isSpeaking
        case .stopSpeaking:
            speech.stop()
        case .device(let name):
            // The engine follows this with a start at the position heard: nothing plays until then.
            try? device?.drop()
            discardBuffered()
            device = nil
            format = nil
            playing = false
            deviceName = name
        case .shutdown(let drain):
            if drain {
                finishBuffered()
                try? device?.drain()
            }
            device = nil
            decoders.closeAll()
            playing = false
            events(.closed)
            return false
        }
        return true
    }

    private mutating func start(
        token: UInt64, path: [UInt8], positionMs: Int64, paused: Bool, cut: Bool,
        requestedAt: ContinuousClock.Instant
    ) {
        if cut || paused { try? device?.drop() }
        self.token = token
        self.requestedAt = requestedAt
        queued = nil
        if !cut && !paused { finishBuffered() }
        discardBuffered()
        // Held paused from here on when asked, even if the track cannot be opened: the state is the
        // engine's, not a side effect of which command came last.
        self.paused = paused
        playing = false
        let newFormat: StreamFormat
        do {
            let opened = try decoders.open(path: path)
            decoder = opened.decoder
            newFormat = opened.format
        } catch {
            decoder = nil
            events(.failed(token: token, reason: error.description, cause: error.cause, positionMs: positionMs))
            return
        }
        var frame = 0
        if positionMs > 0 {
            let wanted = Int(positionMs) * newFormat.sampleRate / 1000
            frame = (try? decoder?.seek(toFrame: wanted)) ?? 0
        }
        guard ensureDevice(for: newFormat, drainFirst: !cut, positionMs: max(0, positionMs)) else { return }
        framesOut = frame
        startFrame = frame
        pausedAtFrame = frame
        announced = false
        playing = true
        publish(frame: frame)
        if paused { events(.held(token: token)) }
    }

    // MARK: - Playing

    /// Writes what is left of the decoded period, or decodes the next one and writes it. Returns after
    /// waiting once for the device (until half its buffer is free), or at once when a command arrives.
    private mutating func step() {
        if bufferWritten < bufferedFrames {
            writeBuffered()
            return
        }
        guard let decoder else { return }
        let result: DecodeStep
        do {
            result = try decoder.read(into: &buffer)
        } catch {
            // The file cannot be read any more (the stick is going): stop here and say how far it was heard,
            // so the resume point stays on this track.
            let heard = positionMs(max(startFrame, framesOut - currentDelay()))
            try? device?.drop()
            discardBuffered()
            playing = false
            events(.failed(token: token, reason: error.description, cause: error.cause, positionMs: heard))
            return
        }
        switch result {
        case .frames(let frames):
            guard let format, frames > 0 else { return }
            let mixed = speech.isActive
            let speechEnded = prepare(frames: frames, format: format)
            bufferedFrames = frames
            bufferWritten = 0
            overSilence = false
            if !announced {
                announced = true
                let now = ContinuousClock.now
                events(.started(token: token, at: now, latency: now - requestedAt))
            }
            writeBuffered()
            if mixed { noteSpeechWritten(ended: speechEnded) }
        case .newFormat(let changed):
            _ = ensureDevice(for: changed, drainFirst: true, positionMs: positionMs(framesOut))
        case .done:
            trackDone()
        }
    }

    /// One period of silence with the phrase on it, while paused or between tracks: the position stays where
    /// it is. Without a device (nothing has played yet) one is opened at the phrase's own rate, mono, 16-bit;
    /// when that fails the phrase is dropped (the music's own start reports the device's trouble). Each call
    /// writes what the device takes, waiting once; a command cuts the wait short and the rest of the period
    /// goes out on the next call.
    private mutating func speakOverSilence() {
        if !overSilence { discardBuffered() }
        if device == nil {
            guard !deviceName.isEmpty, var opened = try? PCMDevice(name: deviceName),
                (try? opened.configure(sampleRate: speech.clipRate, channels: 1)) != nil
            else {
                speech.stop()
                return
            }
            periodFrames = max(64, opened.configuration?.periodFrames ?? 1024)
            deviceFormat = .s16
            device = consume opened
            let silence = StreamFormat(sampleRate: speech.clipRate, channels: 1, bitsPerSample: 16)
            format = silence
            buffer.reserve(frames: periodFrames, for: silence)
            volume.setSampleRate(speech.clipRate)
            speech.setSampleRate(speech.clipRate)
        }
        guard let format else { return }
        if bufferWritten >= bufferedFrames {
            let frames = periodFrames
            let samples = frames * format.channels
            if format.isWide {
                for index in 0..<samples { buffer.wide[index] = 0 }
            } else {
                for index in 0..<samples { buffer.narrow[index] = 0 }
            }
            phraseEndsInPeriod = mixAndConvert(frames: frames, format: format)
            bufferedFrames = frames
            bufferWritten = 0
            overSilence = true
        }
        do {
            bufferWritten += try writePending(
                offset: bufferWritten, frames: bufferedFrames - bufferWritten, wake: true)
        } catch {
            device = nil
            self.format = nil
            discardBuffered()
            speech.stop()
            return
        }
        guard bufferWritten >= bufferedFrames else { return }
        noteSpeechWritten(ended: phraseEndsInPeriod)
        // Said and faded: let the device play its buffer out rather than run dry.
        if !speech.isActive {
            discardBuffered()
            try? device?.drain()
        }
    }

    /// Reports a phrase's first samples reaching the device, and its end.
    private mutating func noteSpeechWritten(ended: Bool) {
        if speechUnheard {
            speechUnheard = false
            events(.speechStarted(id: speechID, at: .now))
        }
        if ended { events(.speechEnded(id: speechID)) }
    }

    /// Applies the volume to a decoded period, mixes the phrase under way over it and converts it to the
    /// device's sample format. Returns true when the phrase ended within the period.
    private mutating func prepare(frames: Int, format: StreamFormat) -> Bool {
        let channels = format.channels
        if format.isWide {
            volume.apply(to: &buffer.wide, frames: frames, channels: channels)
        } else {
            volume.apply(to: &buffer.narrow, frames: frames, channels: channels)
        }
        return mixAndConvert(frames: frames, format: format)
    }

    /// Mixes the phrase under way (if any) into the period and converts it to the device's sample format.
    private mutating func mixAndConvert(frames: Int, format: StreamFormat) -> Bool {
        let channels = format.channels
        var ended = false
        if speech.isActive {
            ended =
                format.isWide
                ? speech.mix(into: &buffer.wide, frames: frames, channels: channels)
                : speech.mix(into: &buffer.narrow, frames: frames, channels: channels)
        }
        let count = frames * channels
        switch (format.isWide, deviceFormat) {
        case (false, .s16):
            pending = .narrow
        case (true, .s32):
            pending = .wide
        case (false, .s32), (false, .s24):
            SampleConversion.widen(buffer.narrow, into: &converted32, count: count, to24: deviceFormat == .s24)
            pending = .converted32
        case (true, .s24):
            SampleConversion.round32to24(buffer.wide, into: &converted32, count: count)
            pending = .converted32
        case (true, .s16):
            SampleConversion.round32to16(buffer.wide, into: &converted16, count: count)
            pending = .converted16
        }
        return ended
    }

    /// Writes up to `frames` frames of the pending period from frame `offset`; returns how many were taken.
    /// With `wake`, a command arriving ends the wait for room (the rest is written on a later call).
    private mutating func writePending(offset: Int, frames: Int, wake: Bool = false) throws(ALSAError) -> Int {
        let wakeOn = wake ? mailbox.descriptor : nil
        switch pending {
        case .narrow: return try device?.write(buffer.narrow, offset: offset, frames: frames, wakeOn: wakeOn) ?? 0
        case .wide: return try device?.write(buffer.wide, offset: offset, frames: frames, wakeOn: wakeOn) ?? 0
        case .converted16:
            return try device?.write(converted16, offset: offset, frames: frames, wakeOn: wakeOn) ?? 0
        case .converted32:
            return try device?.write(converted32, offset: offset, frames: frames, wakeOn: wakeOn) ?? 0
        }
    }

    private mutating func writeBuffered() {
        let taken: Int
        do {
            taken = try writePending(offset: bufferWritten, frames: bufferedFrames - bufferWritten, wake: true)
        } catch {
            deviceLost(error)
            return
        }
        bufferWritten += taken
        framesOut += taken
        publish(frame: max(startFrame, framesOut - currentDelay()))
    }

    /// Writes the rest of the decoded period, however long the device takes (before a drain, or before the
    /// next track follows without a cut), so nothing decoded is lost.
    private mutating func finishBuffered() {
        guard bufferWritten < bufferedFrames, format != nil else { return }
        while bufferWritten < bufferedFrames {
            guard let taken = try? writePending(offset: bufferWritten, frames: bufferedFrames - bufferWritten) else {
                break
            }
            bufferWritten += taken
            framesOut += taken
        }
        // Whatever the device would not take is given up (it is failing; the next write reports it).
        bufferWritten = bufferedFrames
    }

    /// Forgets decoded samples the device has not taken (after a drop).
    private mutating func discardBuffered() {
        bufferedFrames = 0
        bufferWritten = 0
        overSilence = false
    }

    private mutating func trackDone() {
        if framesOut == 0 && startFrame == 0 {
            playing = false
            events(.failed(token: token, reason: "no audio could be decoded", cause: .noAudio, positionMs: 0))
            return
        }
        let ended = token
        guard let next = queued else {
            playing = false
            events(.ended(token: ended))
            return
        }
        queued = nil
        let nextFormat: StreamFormat
        do {
            let opened = try decoders.open(path: next.path)
            decoder = opened.decoder
            nextFormat = opened.format
        } catch {
            decoder = nil
            playing = false
            events(.ended(token: ended))
            return
        }
        token = next.token
        framesOut = 0
        startFrame = 0
        announced = true
        // Gapless: the previous track's periods are all processed, so the next track's level starts with its
        // first period, along the 5 ms ramp (no step in a continuous recording).
        trackLoudness = next.loudness
        volume.setGain(volumeGain * next.loudness, ramp: true)
        events(.continued(ended: ended, token: next.token))
        guard ensureDevice(for: nextFormat, drainFirst: true, positionMs: 0) else { return }
        publish(frame: 0)
    }

    // MARK: - Device

    /// Makes sure an open PCM is configured for `wanted`; returns false (after reporting) when it cannot be.
    /// The same rate and channels on a device of 32-bit words, or a 16-bit stream where the device is
    /// already 16-bit, need nothing new; otherwise the device is drained and set up again.
    private mutating func ensureDevice(for wanted: StreamFormat, drainFirst: Bool, positionMs: Int64) -> Bool {
        if device != nil, let format, format.sampleRate == wanted.sampleRate, format.channels == wanted.channels,
            deviceFormat != .s16 || !wanted.isWide || !allowedFormats.contains(where: { $0 != .s16 })
        {
            if format != wanted {
                self.format = wanted
                buffer.reserve(frames: periodFrames, for: wanted)
                reserveConversions(for: wanted)
            }
            return true
        }
        if drainFirst { try? device?.drain() }
        device = nil
        var opened: PCMDevice
        guard !deviceName.isEmpty else {
            format = nil
            playing = false
            events(.deviceFailed(token: token, message: "no sound output chosen", positionMs: positionMs))
            return false
        }
        do {
            opened = try PCMDevice(name: deviceName)
        } catch {
            format = nil
            playing = false
            let message = "cannot open ALSA device '\(deviceName)': \(error.message)"
            events(.deviceFailed(token: token, message: message, positionMs: positionMs, device: deviceName))
            return false
        }
        let ranked = wanted.isWide ? [PCMSampleFormat.s32, .s24, .s16] : [PCMSampleFormat.s16, .s32, .s24]
        let accepted = opened.acceptedFormats(ranked.filter(allowedFormats.contains))
        do {
            try opened.configure(
                sampleRate: wanted.sampleRate, channels: wanted.channels, format: accepted.first ?? ranked[0])
            periodFrames = max(64, opened.configuration?.periodFrames ?? 1024)
            deviceFormat = opened.configuration?.format ?? .s16
            device = consume opened
            format = wanted
            buffer.reserve(frames: periodFrames, for: wanted)
            reserveConversions(for: wanted)
            volume.setSampleRate(wanted.sampleRate)
            speech.setSampleRate(wanted.sampleRate)
            return true
        } catch {
            format = nil
            playing = false
            let shape = "\(wanted.sampleRate) Hz, \(wanted.channels == 1 ? "mono" : "\(wanted.channels) channels")"
            let message = "cannot set up ALSA device '\(deviceName)' for \(shape): \(error.description)"
            events(.deviceFailed(token: token, message: message, positionMs: positionMs, device: deviceName))
            return false
        }
    }

    private mutating func deviceLost(_ error: ALSAError) {
        let heard = positionMs(max(startFrame, framesOut - currentDelay()))
        device = nil
        format = nil
        playing = false
        let message = "ALSA device '\(deviceName)' failed while playing: \(error.message)"
        events(
            .deviceFailed(
                token: token, message: message, positionMs: heard, device: deviceName, gone: error.deviceIsGone))
    }

    /// Sizes the conversion arrays this stream and device need (allocates only when they need more room).
    private mutating func reserveConversions(for wanted: StreamFormat) {
        let samples = periodFrames * wanted.channels
        let needs16 = wanted.isWide && deviceFormat == .s16
        let needs32 = (!wanted.isWide && deviceFormat != .s16) || (wanted.isWide && deviceFormat == .s24)
        if needs16 && converted16.count < samples { converted16 = [Int16](repeating: 0, count: samples) }
        if needs32 && converted32.count < samples { converted32 = [Int32](repeating: 0, count: samples) }
    }

    private func currentDelay() -> Int { device?.delay() ?? 0 }

    private func positionMs(_ frame: Int) -> Int64 {
        guard let format, format.sampleRate > 0 else { return 0 }
        return Int64(frame) * 1000 / Int64(format.sampleRate)
    }

    /// Publishes the paused flag alone (nothing is playing: the position stays what it was).
    private func publishPaused() {
        var current = position.current
        current.paused = paused
        position.set(current)
    }

    private func publish(frame: Int) {
        let ms = positionMs(frame)
        let token = self.token
        position.set(AudioPosition(token: token, positionMs: ms, paused: paused))
    }
}

/// Which of the loop's arrays holds the period to write.
private enum PendingSamples {
    case narrow, wide, converted16, converted32
}
