import Foundation
import ShuffleCore

/// Generated music libraries for tests: `tools/make-testlib` (the project's own generator) and, where the
/// checkout sits beside `../shared`, the independent yardstick `make-library`.
public enum TestLibrary {
    /// The clip formats of a generated library.
    public enum Formats: String, Sendable {
        /// Every clip 44.1 kHz stereo with a gapless header: a gapless player writes one continuous stream.
        case same
        /// 44.1k/48k/32k stereo, 22.05k and 44.1k mono, CBR and VBR, one clip without an Info header.
        case mixed
        /// Half the tracks `mixed` MP3, the rest FLAC, Ogg Vorbis, Opus, AAC and ALAC in MP4, WAV and AIFF,
        /// with broken files of every format and fake WMA, APE, Musepack, DSD and WavPack files.
        case all
    }

    /// `tools/make-testlib` in this checkout.
    public static var generator: URL { PackagePaths.root.appendingPathComponent("tools/make-testlib") }

    /// Whether the generator can run here (python3 and lame installed).
    public static var isAvailable: Bool { ExternalTool.python3 != nil && ExternalTool.lame != nil }

    /// Writes a library into `directory` (missing or empty) and returns its manifest.
    /// - Parameters:
    ///   - tracks: playable tracks (`kind == track`); broken files and extras come on top.
    ///   - broken: broken audio-named files; nil for the generator's default (2%, at least 5).
    ///   - extras: odd names, hidden and system files, covers, a playlist.
    ///   - seconds: the length of every template clip; nil for 1–3 s varying per clip.
    @discardableResult
    public static func generate(
        at directory: URL, tracks: Int, seed: Int = 1, formats: Formats = .mixed, broken: Int? = nil,
        extras: Bool = true, seconds: Double? = nil
    ) throws -> Manifest {
        var arguments = [
            directory.path, "--tracks", String(tracks), "--seed", String(seed), "--formats", formats.rawValue,
        ]
        if let broken { arguments += ["--broken", String(broken)] }
        arguments.append(extras ? "--extras" : "--no-extras")
        if let seconds { arguments += ["--seconds", String(seconds)] }
        try runTool(generator.path, arguments + ["--quiet"])
        return try Manifest(libraryRoot: directory)
    }

    /// Writes a library with the yardstick `../shared/tools/make-library` and returns its manifest.
    /// Throws when `../shared` is not there (a user's clone); gate such tests on `PackagePaths.shared != nil`.
    @discardableResult
    public static func generateYardstick(at directory: URL, tracks: Int, seed: Int = 1) throws -> Manifest {
        guard let shared = PackagePaths.shared else {
            throw TestSupportError("the yardstick ../shared/tools/make-library is not beside this checkout")
        }
        let tool = shared.appendingPathComponent("tools/make-library").path
        try runTool(tool, [directory.path, "--tracks", String(tracks), "--seed", String(seed), "--quiet"])
        return try Manifest(libraryRoot: directory)
    }

    /// Changes a generated library the way a user would between two index runs (adds, retags, moves,
    /// deletes, breaks a few files), rewrites its manifest, and returns what changed.
    @discardableResult
    public static func mutate(at directory: URL, seed: Int = 1) throws -> [LibraryMutation] {
        try runTool(generator.path, ["mutate", directory.path, "--seed", String(seed), "--quiet"])
        return try LibraryMutation.load(libraryRoot: directory)
    }

    private static func runTool(_ tool: String, _ arguments: [String]) throws {
        guard let python = ExternalTool.python3 else {
            throw TestSupportError(
                "python3 is not installed; the library generators need it (scripts/install-deps test)")
        }
        let result = try Run.program(python, [tool] + arguments)
        guard result.status == 0 else {
            let name = URL(fileURLWithPath: tool).lastPathComponent
            throw TestSupportError(
                "\(name) \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)")
        }
    }
}
