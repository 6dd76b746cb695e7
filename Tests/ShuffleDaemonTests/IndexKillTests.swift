import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

extension LibraryCommandTests {
    /// Starts `shufflebox index ROOT` and kills it with SIGKILL after `delay`; returns whether it was still running.
    func indexKilled(_ root: URL, after delay: Duration) throws -> Bool {
        let process = Process()
        process.executableURL = PackagePaths.shufflebox
        process.arguments = ["index", root.path, "--db", db]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let micros = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
        usleep(UInt32(micros))
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        return wasRunning && Run.exitStatus(of: process) == 128 + SIGKILL
    }

    @Test(
        .enabled(
            if: TestLibrary.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"),
            "needs python3, lame and sqlite3"))
    func killNineDuringIndexingNeverCorruptsAndTheNextRunIsExact() throws {
        let root = scratch.appending("big")
        try TestLibrary.generate(at: root, tracks: 3000, seed: 21)
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        var killedWhileRunning = 0
        // How long a whole first index takes here (debug build, this machine, its load): the first-index
        // kills land within it, so they nearly always catch the run mid-way. A fixed 0–900 ms missed every
        // time in about one run in twenty once a whole index took 0.3 s.
        let started = ContinuousClock.now
        _ = try index(root)
        let whole = ContinuousClock.now - started
        let wholeMicros = whole.components.seconds * 1_000_000 + whole.components.attoseconds / 1_000_000_000_000
        for round in 0..<6 {
            // Even rounds kill a first index of the whole library; odd rounds an incremental run after the
            // library changed the way a user changes it (adds, retags, moves, deletes, breaks files).
            let delay: Duration
            if round % 2 == 0 {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
                delay = .microseconds(Int64.random(in: 0...max(1, wholeMicros * 9 / 10), using: &random))
            } else {
                try TestLibrary.mutate(at: root, seed: round)
                delay = .microseconds(Int64.random(in: 0...150_000, using: &random))
            }
            if try indexKilled(root, after: delay) { killedWhileRunning += 1 }
            // A kill before the database file was created cannot have corrupted it; the exact run below
            // still has to build it.
            if FileManager.default.fileExists(atPath: db) {
                let check = try Run.program("/usr/bin/sqlite3", [db, "PRAGMA integrity_check"])
                #expect(
                    check.stdout == "ok\n",
                    "round \(round), seed \(seed), killed after \(delay): \(check.stdout)\(check.stderr)")
            }
            _ = try index(root)
            try expectListing(matches: try Manifest(libraryRoot: root))
        }
        // Not a timing assertion: a run of several hundred ms killed at random within it is nearly always
        // caught mid-way; this only guards against the test silently killing finished processes every time.
        #expect(killedWhileRunning > 0, "seed \(seed), a whole index took \(whole)")
    }
}
