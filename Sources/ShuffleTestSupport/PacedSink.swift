import Foundation

/// An ALSA device named `paced` that consumes audio at its real rate and records what it heard:
/// `scripts/paced-sink` (a private PulseAudio server with a null sink, behind ALSA's pulse plugin).
/// For tests where time must pass (pause, resume position, how soon a button is answered).
///
///     let sink = try PacedSink(directory: dir.appending("paced"))
///     try sink.record(to: dir.appending("heard.raw"))          // s16le, 44100 Hz, stereo
///     try Run.shufflebox(["play", ..., "--device", PacedSink.device], environment: sink.environment)
///     try sink.stop()
///
/// The recording holds silence before and after the music, and the music itself exactly when it was
/// played as 44.1 kHz stereo (other rates are resampled by the server).
public final class PacedSink: @unchecked Sendable {
    // @unchecked: `directory` and `environment` never change; `running` is only touched under `lock`.
    /// The ALSA device name.
    public static let device = "paced"
    /// The recording's sample rate.
    public static let recordingRate = 44100
    /// The recording's channels.
    public static let recordingChannels = 2

    /// The folder holding the server's socket, log and ALSA configuration.
    public let directory: URL
    /// Environment entries a child process needs to find the `paced` device.
    public let environment: [String: String]
    private let lock = NSLock()
    private var running = true

    /// `scripts/paced-sink` in this checkout.
    public static var script: URL { PackagePaths.root.appendingPathComponent("scripts/paced-sink") }

    /// Whether pulseaudio, parec, pacat and ALSA's pulse plugin are installed.
    public static var isAvailable: Bool {
        guard ExternalTool.find("pulseaudio") != nil, ExternalTool.find("parec") != nil,
            ExternalTool.find("pacat") != nil
        else { return false }
        let plugins = [
            "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/arm-linux-gnueabihf", "/usr/lib",
        ]
        return plugins.contains {
            FileManager.default.fileExists(atPath: "\($0)/alsa-lib/libasound_module_pcm_pulse.so")
        }
    }

    /// Starts the server; its files go into `directory` (created if needed).
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let resolved = directory.resolvingSymlinksInPath()
        self.directory = resolved
        environment = [
            "ALSA_CONFIG_PATH": "\(ALSATestDevices.systemConfig):\(resolved.path)/asound.conf",
            "PULSE_SERVER": "unix:\(resolved.path)/run/native",
        ]
        try Self.run(["start", resolved.path])
    }

    /// Records what the device plays into `file` (raw s16le, 44100 Hz, stereo) until `stop()`;
    /// returns once the recording is running.
    public func record(to file: URL) throws { try Self.run(["record", directory.path, file.path]) }

    /// Stops the recording and the server (later calls do nothing).
    public func stop() throws {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        if wasRunning { try Self.run(["stop", directory.path]) }
    }

    deinit { try? stop() }

    /// Frames of a recording (`record(to:)`) that are not silent: the audio that was actually heard.
    public static func heardFrames(in file: URL) -> Int {
        guard let data = try? Data(contentsOf: file) else { return 0 }
        return data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            var heard = 0
            var index = 0
            while index + 1 < samples.count {
                if samples[index] != 0 || samples[index + 1] != 0 { heard += 1 }
                index += 2
            }
            return heard
        }
    }

    private static func run(_ arguments: [String]) throws {
        let result = try Run.program(script.path, arguments)
        guard result.status == 0 else {
            throw TestSupportError(
                "scripts/paced-sink \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)"
            )
        }
    }
}
