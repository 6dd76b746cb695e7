import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// The files `make-testlib mp3-edge` writes: MP3s from the edges of the wild (last frames cut short, headers
/// over-claiming, a lone Xing frame, broken LAME fields, junk, free format, MPEG-2.5, garbage), each
/// checked against libmpg123's own answer through the player's decoder (`DecoderOracle`).
///
/// | class | what the probe must say |
/// |---|---|
/// | clean, cut-last-frame, interrupted-copy, xing-overclaim, xing-underclaim, vbri, vbri-overclaim, info-zero-frames, lame-broken, junk-before-audio, format-change | the decoder's verdict and exactly its frames |
/// | junk-between-frames | the verdict; exactly the decoder's frames for zeros, text and tags; within 35% for random bytes (junk that looks like frames is decoded as frames, and the decoder's give-up point after a failed resync is only approximated) |
/// | lone-xing, garbage | unplayable, as the decoder produces nothing |
@Suite(.enabled(if: TestLibrary.isAvailable, "needs python3 and lame"))
struct MP3EdgeTests {
    /// One fixture row of `.mp3-edge.tsv`.
    struct Fixture: CustomStringConvertible, Sendable {
        let name: String
        let kind: String
        let expect: String
        let note: String
        var description: String { "\(name) [\(kind): \(note)]" }
    }

    /// The fixtures, written once per test run.
    static let library: (folder: URL, rows: [Fixture])? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp3-edge-\(UUID().uuidString)")
        let tool = PackagePaths.root.appendingPathComponent("tools/make-testlib").path
        guard let made = try? Run.program(tool, ["mp3-edge", folder.path, "--seed", "1", "--quiet"]), made.status == 0,
            let table = try? String(contentsOf: folder.appendingPathComponent(".mp3-edge.tsv"), encoding: .utf8)
        else { return nil }
        var rows: [Fixture] = []
        for line in table.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("name\t") {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count >= 5 else { continue }
            rows.append(Fixture(name: cells[0], kind: cells[1], expect: cells[3], note: cells[4]))
        }
        return (folder, rows)
    }()

    /// Every class the generator writes, with the least it must hold.
    static let classes = [
        "clean", "cut-last-frame", "interrupted-copy", "xing-overclaim", "xing-underclaim", "vbri", "vbri-overclaim",
        "info-zero-frames", "lone-xing", "lame-broken", "junk-between-frames", "junk-before-audio", "format-change",
        "garbage",
    ]

    @Test func theGeneratorWritesEveryClass() throws {
        let library = try #require(Self.library, "make-testlib mp3-edge failed")
        #expect(Set(library.rows.map(\.kind)) == Set(Self.classes))
        #expect(library.rows.count > 300)
    }

    @Test(arguments: classes)
    func theProbeAgreesWithLibmpg123(_ kind: String) throws {
        let library = try #require(Self.library, "make-testlib mp3-edge failed")
        let rows = library.rows.filter { $0.kind == kind }
        #expect(!rows.isEmpty)
        for row in rows {
            let path = library.folder.appendingPathComponent(row.name).path
            let decoded = try DecoderOracle.decode(path)
            let outcome = MediaProbe.probe(path: PathBytes(path))
            // The fixture still shows its class: the decoder finds audio exactly where the generator meant some.
            #expect(decoded.isPlayable == (row.expect == "audio"), "\(row): decoder \(decoded)")
            guard case .audio(_, let stream) = outcome else {
                #expect(!decoded.isPlayable, "\(row): probe \(outcome), decoder \(decoded)")
                continue
            }
            #expect(decoded.isPlayable, "\(row): probe \(stream.frames) frames, decoder \(decoded)")
            #expect(stream.frames > 0, "\(row)")
            #expect(stream.sampleRate == decoded.sampleRate, "\(row)")
            #expect(stream.channels == decoded.channels, "\(row)")
            #expect(!stream.isEstimate, "\(row)")
            if row.name.hasPrefix("junk-random-") {
                let difference = abs(stream.frames - decoded.frames)
                #expect(difference * 100 <= decoded.frames * 35, "\(row): probe \(stream.frames), decoder \(decoded)")
            } else {
                #expect(stream.frames == decoded.frames, "\(row): probe \(stream.frames), decoder \(decoded)")
            }
        }
    }

    /// Every input the fuzzers kept (Fixtures/crashers, among them the disagreements the differential
    /// `mp3diff` target found) gets the decoder's verdict from the probe.
    @Test(arguments: CrasherReplayTests.crashers)
    func whatTheFuzzerFoundAgreesWithLibmpg123(_ file: URL) throws {
        let decoded = try DecoderOracle.decode(file.path)
        var frames: Int64 = 0
        if case .audio(_, let stream) = MediaProbe.probe(path: PathBytes(file.path)) { frames = stream.frames }
        #expect((frames > 0) == decoded.isPlayable, "\(file.lastPathComponent): probe \(frames), decoder \(decoded)")
    }

    /// Truncations and corruptions at seeded random places of every clean clip: the verdict always agrees,
    /// the frames agree exactly after a truncation and closely after a corruption.
    @Test func randomDamageToCleanClipsAgreesWithLibmpg123() throws {
        let library = try #require(Self.library, "make-testlib mp3-edge failed")
        let folder = try TemporaryDirectory(prefix: "mp3-damage")
        var generator = SplitMix(seed: 10)
        var disagreements: [String] = []
        var compared = 0
        for row in library.rows where row.kind == "clean" {
            let clean = try [UInt8](Data(contentsOf: library.folder.appendingPathComponent(row.name)))
            for trial in 0..<24 {
                var bytes = clean
                let truncated = trial % 2 == 0
                if truncated {
                    bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
                } else {
                    for _ in 0..<(1 + Int(generator.next() % 8)) {
                        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                let url = folder.url.appendingPathComponent("\(row.name)-\(trial).mp3")
                try Data(bytes).write(to: url)
                let decoded = try DecoderOracle.decode(url.path)
                var frames: Int64 = 0
                if case .audio(_, let stream) = MediaProbe.probe(path: PathBytes(url.path)) { frames = stream.frames }
                compared += 1
                let close = truncated ? frames == decoded.frames : abs(frames - decoded.frames) * 50 <= decoded.frames
                if (frames > 0) != decoded.isPlayable || !close {
                    disagreements.append("\(row.name) trial \(trial): probe \(frames), decoder \(decoded)")
                }
            }
        }
        #expect(compared > 200)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared): \(disagreements.prefix(12))")
    }
}
