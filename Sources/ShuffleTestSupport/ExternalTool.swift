import Foundation
import ShuffleCore

/// Programs the tests use from the system (`mpg123`, `aplay`, `lame`), found on `PATH`, so a test can
/// skip cleanly when one is missing: `@Test(.enabled(if: ExternalTool.mpg123 != nil, "needs mpg123"))`.
public enum ExternalTool {
    /// The full path of `name` on `PATH`, if it is there and executable.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// `mpg123`, the reference decoder.
    public static var mpg123: String? { find("mpg123") }
    /// `lame`, which the generator needs.
    public static var lame: String? { find("lame") }
    /// `python3`, which runs the generator.
    public static var python3: String? { find("python3") }
    /// `aplay` from alsa-utils.
    public static var aplay: String? { find("aplay") }
    /// Whether the encoders and reference decoders `make-testlib --formats all` runs are all here: `flac`,
    /// `oggenc`/`oggdec` (vorbis-tools), `opusenc`/`opusdec` (opus-tools) and `ffmpeg`.
    public static var allFormatTools: Bool {
        ["flac", "oggenc", "oggdec", "opusenc", "opusdec", "ffmpeg"].allSatisfy { find($0) != nil }
    }

    /// Decodes the file at `path` with FFmpeg's command line (from standard input, so names need not be UTF-8)
    /// and returns the PCM frames per channel it produced: 0 when it decodes nothing.
    public static func ffmpegDecodedFrames(of path: PathBytes) throws -> Int64 {
        guard let ffmpeg = find("ffmpeg") else {
            throw TestSupportError("ffmpeg is not installed (apt-get install ffmpeg)")
        }
        let input = try LibraryFiles.contents(of: path)
        // Mixed down to one channel, so that every two bytes are a frame.
        let result = try Run.program(
            ffmpeg, ["-v", "quiet", "-nostdin", "-i", "-", "-f", "s16le", "-ac", "1", "-"], stdin: input)
        return Int64(result.stdoutData.count / 2)
    }

    /// Decodes the file at `path` (bytes, so names that are not UTF-8 work too) with `mpg123 -s` reading
    /// standard input (gapless on, as for a named file) and returns the PCM frames per channel it produced.
    public static func decodedFrames(of path: PathBytes, channels: Int) throws -> Int64 {
        guard let mpg123 else { throw TestSupportError("mpg123 is not installed (apt-get install mpg123)") }
        let input = try LibraryFiles.contents(of: path)
        let result = try Run.program(mpg123, ["-q", "-s", "-"], stdin: input)
        guard result.status == 0 else {
            throw TestSupportError("mpg123 failed on \(path.display) (status \(result.status)): \(result.stderr)")
        }
        return Int64(result.stdoutData.count / (2 * max(1, channels)))
    }
}
