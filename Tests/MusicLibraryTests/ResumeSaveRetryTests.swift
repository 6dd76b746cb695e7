import Foundation
import MusicLibrary
import ShuffleCore
import ShuffleTestSupport
import Testing

/// The daemon's store on a state folder that fills up: a resume point that cannot be stored leaves the last
/// stored one as it was, says why in `saveHealth`, and is stored by itself once there is space again.
@Suite(.enabled(if: geteuid() == 0, "mounts a small tmpfs as the state folder"))
struct ResumeSaveRetryTests {
    @Test func aSaveThatFailsForWantOfSpaceIsRetriedAndStoredWhenSpaceReturns() async throws {
        let folder = try TemporaryDirectory(prefix: "save-retry")
        let state = folder.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let mount = try Run.program("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", state])
        #expect(mount.status == 0, "\(mount.stderr)")
        defer { _ = try? Run.program("/bin/umount", ["-l", state]) }

        let (store, _) = try LibraryStore.openReplacingDamage(path: state + "/library.db") { _ in }
        let volume = try await store.perform { database throws(LibraryError) in
            try database.volume(key: "path:/stick", root: PathBytes("/stick"), now: 1)
        }
        let small = PlaybackState(order: [TrackID(1)], cursor: 0, positionMs: 1000, volume: 5, paused: true)
        try await store.savePlaybackState(small, of: volume)

        // Fill the folder, then ask for a resume point bigger than what is left.
        let filler = state + "/filler"
        _ = FileManager.default.createFile(atPath: filler, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        while (try? handle.write(contentsOf: Data(count: 16 * 1024))) != nil {}
        try handle.close()
        let big = PlaybackState(
            order: (1...60_000).map { TrackID(Int64($0)) }, cursor: 7, positionMs: 2000, volume: 6,
            paused: true)
        await #expect(throws: LibraryError.self) { try await store.savePlaybackState(big, of: volume) }
        #expect(store.saveHealth.failure != nil)
        let kept = try await store.loadPlaybackState(of: volume)
        #expect(kept == small, "the last stored point is kept")

        try FileManager.default.removeItem(atPath: filler)
        var stored = false
        for _ in 0..<100 where !stored {
            try await Task.sleep(for: .milliseconds(100))
            stored = store.saveHealth.failure == nil
        }
        #expect(stored, "the retry stored the point once there was space")
        let after = try await store.loadPlaybackState(of: volume)
        #expect(after == big)
    }
}
