import Foundation

/// Follows a `PacedSink` recording as it grows and says whether music is being heard now: for tests that
/// check the player's reported state against what actually comes out of the device.
///
///     let heard = HeardAudio(file: recording)
///     #expect(heard.waitForSound(), "playing, so something must be heard")
///     #expect(heard.waitForSilence(), "paused, so the music must stop")
public final class HeardAudio: @unchecked Sendable {
    // @unchecked: used from one test at a time; `offset` and `frames` change only inside `heardFrames()`.
    private let file: URL
    private var offset: UInt64 = 0
    private var frames = 0
    private var carry: [UInt8] = []

    /// Follows `file` (raw s16le stereo at `PacedSink.recordingRate`) from its current end.
    public init(file: URL) {
        self.file = file
        _ = heardFrames()
    }

    /// Non-silent frames recorded so far (read incrementally).
    public func heardFrames() -> Int {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return frames }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        let data = (try? handle.readToEnd()) ?? Data()
        offset += UInt64(data.count)
        var bytes = carry + [UInt8](data)
        let whole = bytes.count / 4 * 4
        var index = 0
        while index < whole {
            if bytes[index] != 0 || bytes[index + 1] != 0 || bytes[index + 2] != 0 || bytes[index + 3] != 0 {
                frames += 1
            }
            index += 4
        }
        bytes.removeFirst(whole)
        carry = bytes
        return frames
    }

    /// Waits until at least `milliseconds` more of music is heard; false when that does not happen within
    /// `seconds` (generous: a busy machine may delay the device, never this long).
    public func waitForSound(milliseconds: Int = 150, seconds: Double = 6) -> Bool {
        let start = heardFrames()
        let wanted = milliseconds * PacedSink.recordingRate / 1000
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if heardFrames() - start >= wanted { return true }
            usleep(20_000)
        }
        return heardFrames() - start >= wanted
    }

    /// Waits until no music has been heard for `quietMilliseconds` in a row (what was already on its way
    /// through the sound server drains first); false when music keeps coming for `seconds`.
    public func waitForSilence(quietMilliseconds: Int = 250, seconds: Double = 4) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var last = heardFrames()
        var quietSince = Date()
        while Date() < deadline {
            usleep(25_000)
            let now = heardFrames()
            if now != last {
                last = now
                quietSince = Date()
            } else if Date().timeIntervalSince(quietSince) * 1000 >= Double(quietMilliseconds) {
                return true
            }
        }
        return false
    }
}
