import LibALSA
import LibMPG123
import Synchronization

/// The state and steps of the audio thread's loop; owned by that thread alone (`~Copyable`, like the
/// decoder and the PCM it holds).
///
/// Format changes: when the next track (or a stream mid-way) has another sample rate or channel count, the
/// buffered audio is drained and the PCM is configured again for the new format. Converting instead would
/// need a resampler in the player (libmpg123's is crude) and would stop a `hw:` DAC from playing each file
/// at its own rate; ALSA's `plug`/`default` PCMs already convert when the hardware cannot follow.
struct AudioLoop: ~Copyable {
    private var decoder: MP3Decoder
    private var device: PCMDevice?
    private let deviceName: String
    private let mailbox: AudioMailbox
    private let position: PositionBox
    private let events: @Sendable (AudioEvent) -> Void
    private var volume: VolumeStage
    /// One period of interleaved samples, reused for every read (resized only when the format changes).
    private var buffer: [Int16] = []

    // The current track.
    private var token: UInt64 = 0
    private var playing = false
    private var paused = false
    private var format: MP3Format?
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

    init(
        decoder: consuming MP3Decoder, deviceName: String, gain: Double, duckDecibels: Double, mailbox: AudioMailbox,
        position: PositionBox, events: @escaping @Sendable (AudioEvent) -> Void
    ) {
        speech = SpeechMix(duckDecibels: duckDecibels)
        self.decoder = decoder
        self.deviceName = deviceName
        self.mailbox = mailbox
        self.position = position
        self.events = events
        volume = VolumeStage(gain: gain, sampleRate: 44_100)
    }

    /// Runs until a `shutdown` command.
    mutating func run() {
        while true {
            if (!playing || paused) && !speech.isActive { mailbox.wait() }
            for command in mailbox.take() where !handle(command) { return }
            if playing && !paused {
                step()
            } else if speech.isActive {
                speakOverSilence()
            }
        }
    }

    // MARK: - Commands

    /// Carries out one command; returns false when the thread should end.
    private mutating func handle(_ command: AudioCommand) -> Bool {
        switch command {
        case .start(let token, let path, let positionMs, let paused, let cut, let requestedAt):
            start(token: token, path: path, positionMs: positionMs, paused: paused, cut: cut, requestedAt: requestedAt)
        case .queue(let next):
            if let next, next.after != token { return true }
            queued = next
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
                let landed = (try? decoder.seek(toFrame: pausedAtFrame)) ?? pausedAtFrame
                framesOut = landed
                publish(frame: framesOut)
            } else {
                publishPaused()
            }
        case .gain(let gain, let ramp):
            volume.setGain(gain, ramp: ramp)
        case .speak(let clip):
            speechID = clip.id
            speech.setSampleRate(format?.sampleRate ?? clip.sampleRate)
            speech.start(clip.samples, sampleRate: clip.sampleRate, gain: clip.gain)
            speechUnheard = speech.isSpeaking
        case .stopSpeaking:
            speech.stop()
        case .shutdown(let drain):
            if drain {
                finishBuffered()
                try? device?.drain()
            }
            device = nil
            decoder.close()
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
        let newFormat: MP3Format
        do {
            newFormat = try decoder.open(path: path)
        } catch {
            events(
                .failed(token: token, reason: error.description, cause: Self.cause(of: error), positionMs: positionMs))
            return
        }
        var frame = 0
        if positionMs > 0 {
            let wanted = Int(positionMs) * newFormat.sampleRate / 1000
            frame = (try? decoder.seek(toFrame: wanted)) ?? 0
        }
        guard ensureDevice(for: newFormat, drainFirst: !cut, positionMs: max(0, positionMs)) else { return }
        framesOut = frame
        startFrame = frame
        pausedAtFrame = frame
        announced = false
        playing = true
        publish(frame: frame)
    }

    // MARK: - Playing

    /// Writes what is left of the decoded period, or decodes the next one and writes it. Returns after at
    /// most about two periods of waiting on the device, so commands are looked at that often.
    private mutating func step() {
        if bufferWritten < bufferedFrames {
            writeBuffered()
            return
        }
        let result: MP3ReadResult
        do {
            result = try decoder.read(into: &buffer)
        } catch {
            // The file cannot be read any more (the stick is going): stop here and say how far it was heard,
            // so the resume point stays on this track.
            let heard = positionMs(max(startFrame, framesOut - currentDelay()))
            try? device?.drop()
            discardBuffered()
            playing = false
            events(.failed(token: token, reason: error.description, cause: Self.cause(of: error), positionMs: heard))
            return
        }
        switch result {
        case .samples(let count):
            guard let format, count > 0 else { return }
            let frames = count / format.channels
            volume.apply(to: &buffer, frames: frames, channels: format.channels)
            var speechEnded = false
            let mixed = speech.isActive
            if mixed { speechEnded = speech.mix(into: &buffer, frames: frames, channels: format.channels) }
            bufferedFrames = frames
            bufferWritten = 0
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
    /// it is. Without a device (nothing has played yet) one is opened at the phrase's own rate, mono; when
    /// that fails the phrase is dropped (the music's own start reports the device's trouble).
    private mutating func speakOverSilence() {
        if device == nil {
            guard var opened = try? PCMDevice(name: deviceName),
                (try? opened.configure(sampleRate: speech.clipRate, channels: 1)) != nil
            else {
                speech.stop()
                return
            }
            let periodFrames = opened.configuration?.periodFrames ?? 1024
            device = consume opened
            format = MP3Format(sampleRate: speech.clipRate, channels: 1)
            buffer = [Int16](repeating: 0, count: max(64, periodFrames))
            volume.setSampleRate(speech.clipRate)
            speech.setSampleRate(speech.clipRate)
        }
        guard let format else { return }
        discardBuffered()
        let frames = buffer.count / format.channels
        for index in buffer.indices { buffer[index] = 0 }
        let ended = speech.mix(into: &buffer, frames: frames, channels: format.channels)
        do {
            try device?.writeAll(buffer, frames: frames)
        } catch {
            device = nil
            self.format = nil
            speech.stop()
            return
        }
        noteSpeechWritten(ended: ended)
        // Said and faded: let the device play its buffer out rather than run dry.
        if !speech.isActive { try? device?.drain() }
    }

    /// Reports a phrase's first samples reaching the device, and its end.
    private mutating func noteSpeechWritten(ended: Bool) {
        if speechUnheard {
            speechUnheard = false
            events(.speechStarted(id: speechID, at: .now))
        }
        if ended { events(.speechEnded(id: speechID)) }
    }

    private mutating func writeBuffered() {
        let taken: Int
        do {
            taken = try device?.write(buffer, offset: bufferWritten, frames: bufferedFrames - bufferWritten) ?? 0
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
        guard bufferWritten < bufferedFrames, let format else { return }
        let rest = Array(buffer[(bufferWritten * format.channels)..<(bufferedFrames * format.channels)])
        try? device?.writeAll(rest, frames: bufferedFrames - bufferWritten)
        framesOut += bufferedFrames - bufferWritten
        bufferWritten = bufferedFrames
    }

    /// Forgets decoded samples the device has not taken (after a drop).
    private mutating func discardBuffered() {
        bufferedFrames = 0
        bufferWritten = 0
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
        let nextFormat: MP3Format
        do {
            nextFormat = try decoder.open(path: next.path)
        } catch {
            playing = false
            events(.ended(token: ended))
            return
        }
        token = next.token
        framesOut = 0
        startFrame = 0
        announced = true
        events(.continued(ended: ended, token: next.token))
        if nextFormat != format {
            guard ensureDevice(for: nextFormat, drainFirst: true, positionMs: 0) else { return }
        }
        publish(frame: 0)
    }

    // MARK: - Device

    /// Makes sure an open PCM is configured for `wanted`; returns false (after reporting) when it cannot be.
    private mutating func ensureDevice(for wanted: MP3Format, drainFirst: Bool, positionMs: Int64) -> Bool {
        if device != nil, format == wanted { return true }
        if drainFirst { try? device?.drain() }
        device = nil
        var opened: PCMDevice
        do {
            opened = try PCMDevice(name: deviceName)
        } catch {
            format = nil
            playing = false
            let message = "cannot open ALSA device '\(deviceName)': \(error.message)"
            events(.deviceFailed(token: token, message: message, positionMs: positionMs))
            return false
        }
        do {
            try opened.configure(sampleRate: wanted.sampleRate, channels: wanted.channels)
            let periodFrames = opened.configuration?.periodFrames ?? 1024
            device = consume opened
            format = wanted
            buffer = [Int16](repeating: 0, count: max(64, periodFrames) * wanted.channels)
            volume.setSampleRate(wanted.sampleRate)
            speech.setSampleRate(wanted.sampleRate)
            return true
        } catch {
            format = nil
            playing = false
            let shape = "\(wanted.sampleRate) Hz, \(wanted.channels == 1 ? "mono" : "\(wanted.channels) channels")"
            let message = "cannot set up ALSA device '\(deviceName)' for \(shape): \(error.description)"
            events(.deviceFailed(token: token, message: message, positionMs: positionMs))
            return false
        }
    }

    private mutating func deviceLost(_ error: ALSAError) {
        let heard = positionMs(max(startFrame, framesOut - currentDelay()))
        device = nil
        format = nil
        playing = false
        let message = "ALSA device '\(deviceName)' failed while playing: \(error.message)"
        events(.deviceFailed(token: token, message: message, positionMs: heard))
    }

    /// Whether a decoder error is about the file's data or about reading it.
    private static func cause(of error: MPG123Error) -> TrackFailure {
        error.systemError.map { .unreadable(errno: $0) } ?? .noAudio
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
