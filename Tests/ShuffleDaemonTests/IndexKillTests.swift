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
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
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
        for round in 0..<6 {
            // Even rounds kill a first index of the whole library; odd rounds an incremental run after the
            // library changed the way a user changes it (adds, retags, moves, deletes, breaks files).
            let delay: Duration
            if round % 2 == 0 {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
                delay = .microseconds(Int64.random(in: 0...900_000, using: &random))
            } else {
                try TestLibrary.mutate(at: root, seed: round)
                delay = .microseconds(Int64.random(in: 0...150_000, using: &random))
            }
            if try indexKilled(root, after: delay) { killedWhileRunning += 1 }
            let check = try Run.program("/usr/bin/sqlite3", [db, "PRAGMA integrity_check"])
            #expect(
                check.stdout == "ok\n",
                "round \(round), seed \(seed), killed after \(delay): \(check.stdout)\(check.stderr)")
            _ = try index(root)
            try expectListing(matches: try Manifest(libraryRoot: root))
        }
        // Not a timing assertion: a run of several hundred ms killed at random within it is nearly always
        // caught mid-way; this only guards against the test silently killing finished processes every time.
        #expect(killedWhileRunning > 0, "seed \(seed)")
    }
}

extension LibraryCommandTests {
    @Test(.enabled(if: geteuid() == 0 && TestLibrary.isAvailable, "mounts a tmpfs; needs python3 and lame"))
    func aStickUnmountedWhileIndexingKeepsEveryTrack() throws {
        let stick = scratch.appending("mnt")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: false)
        #expect(try Run.program("/bin/mount", ["-t", "tmpfs", "-o", "size=512m", "tmpfs", stick.path]).status == 0)
        defer { _ = try? Run.program("/bin/umount", ["-l", stick.path]) }
        let manifest = try TestLibrary.generate(at: stick, tracks: 3000, seed: 31, formats: .same, seconds: 1)
        _ = try index(stick)
        try expectListing(matches: manifest)
        let before = try listing()

        // Every file changes, so the next run reads all of them again; the stick goes away part-way.
        let touched = try Run.program("/usr/bin/find", [stick.path, "-type", "f", "-exec", "touch", "{}", "+"])
        #expect(touched.status == 0, "\(touched.stderr)")
        let process = Process()
        process.executableURL = PackagePaths.shufflebox
        process.arguments = ["index", stick.path, "--db", db]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        usleep(UInt32.random(in: 0...400_000))
        #expect(try Run.program("/bin/umount", ["-l", stick.path]).status == 0)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            #expect(stderr.contains("nothing was removed"), "\(stderr)")
        }
        let after = try listing()
        #expect(Set(after.keys) == Set(before.keys), "every track of the unplugged stick is still listed; \(stderr)")
        let unplayable = after.filter { $0.value["status"] as? String == "unplayable" }.count
        #expect(unplayable == before.filter { $0.value["status"] as? String == "unplayable" }.count, "\(stderr)")
    }
}
