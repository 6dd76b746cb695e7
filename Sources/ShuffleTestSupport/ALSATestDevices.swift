import Foundation

/// The project's ALSA test devices, for machines without a sound card.
///
/// - `capture` / `capture_wav` (`tests/alsa/capture.conf`): alsa-lib's `file` PCM in front of the `null`
///   device. Everything a player writes lands byte for byte in a file, as fast as it is written.
///   A child process gets them through `captureEnvironment(file:)`.
/// - `fileDevice(_:format:)`: the same without any configuration file, as a PCM name alsa-lib
///   understands directly (`file:'PATH',raw`), for code that opens ALSA inside the test process.
/// - `paced`: real time, see `PacedSink`.
public enum ALSATestDevices {
    /// The device that writes raw interleaved PCM into `$SHUFFLEBOX_CAPTURE`.
    public static let capture = "capture"
    /// The device that writes a WAV file into `$SHUFFLEBOX_CAPTURE`.
    public static let captureWAV = "capture_wav"
    /// alsa-lib's own configuration, loaded first.
    public static let systemConfig = "/usr/share/alsa/alsa.conf"

    /// `tests/alsa/capture.conf` in this checkout.
    public static var captureConfig: URL { PackagePaths.root.appendingPathComponent("tests/alsa/capture.conf") }

    /// Environment entries that make `capture` and `capture_wav` write into `file`; pass them to a child
    /// process (`Run.shufflebox(args, environment: ...)`).
    public static func captureEnvironment(file: URL) -> [String: String] {
        ["ALSA_CONFIG_PATH": "\(systemConfig):\(captureConfig.path)", "SHUFFLEBOX_CAPTURE": file.path]
    }

    /// What a `file` PCM writes.
    public enum FileFormat: String, Sendable {
        /// Raw interleaved samples, exactly as written.
        case raw
        /// A WAV file.
        case wav
    }

    /// A PCM name that writes into `file` with no configuration file or environment at all
    /// (alsa-lib's built-in `file` PCM, whose slave is `null`). The path must not contain `'`.
    public static func fileDevice(_ file: URL, format: FileFormat = .raw) -> String {
        "file:'\(file.path)',\(format.rawValue)"
    }

    /// Whether the `paced` device can run here (pulseaudio, pulseaudio-utils and ALSA's pulse plugin).
    public static var pacedIsAvailable: Bool { PacedSink.isAvailable }
}
