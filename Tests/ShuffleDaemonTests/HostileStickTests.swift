import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// A stick of sparse files claiming gigabyte tags, indexed by the real executable: small on disk, and the
/// indexer must stay as small in memory (the box has 512 MB; the target is 64 MiB whatever the stick holds).
@Suite struct HostileStickTests {
    let scratch: TemporaryDirectory
    var db: String { scratch.path + "/library.db" }

    init() throws { scratch = try TemporaryDirectory(prefix: "hostile-stick") }

    @Test(.enabled(if: Run.canMeasurePeakMemory, "needs GNU time (scripts/install-deps test)"))
    func indexingSparseFilesClaimingGigabyteTagsStaysUnder64MiBAndMarksEachFile() throws {
        let stick = scratch.appending("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        for hostile in HostileFiles.all + [HostileFiles.eightGiBStream] { try hostile.write(in: stick) }
        let (result, peakKiB) = try Run.shuffleboxMeasuringPeakMemory(["index", stick.path, "--db", db])
        #expect(result.status == 0, "index failed: \(result.stderr)")
        #expect(peakKiB < 64 * 1024, "index peaked at \(peakKiB) KiB")

        let list = try Run.shufflebox(["list", "--json", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        var statuses: [String: String] = [:]
        for line in list.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let path = object?["path"] as? String { statuses[path] = object?["status"] as? String }
        }
        for hostile in HostileFiles.all + [HostileFiles.eightGiBStream] {
            #expect(statuses[hostile.name] == (hostile.isPlayable ? "ok" : "unplayable"), "\(hostile.name)")
        }
        // Every file was recorded: a second run has nothing to read again.
        let again = try Run.shufflebox(["index", stick.path, "--db", db])
        #expect(again.stderr.contains("(0 added, 0 changed, 0 moved, 0 removed)"), "\(again.stderr)")
    }
}
