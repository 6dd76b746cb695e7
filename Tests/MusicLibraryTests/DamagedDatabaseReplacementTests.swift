import Foundation
import MusicLibrary
import ShuffleTestSupport
import Testing

/// `LibraryDatabase.openReplacingDamage`, what the daemon opens its database with, on real files.
@Suite struct DamagedDatabaseReplacementTests {
    let folder: TemporaryDirectory
    var path: String { folder.path + "/library.db" }

    init() throws { folder = try TemporaryDirectory(prefix: "damaged-db") }

    @Test func aHealthyDatabaseIsKept() throws {
        _ = try LibraryDatabase(path: path, create: true)
        let (_, replacement) = try LibraryDatabase.openReplacingDamage(path: path, now: 0)
        #expect(replacement == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.contains("damaged") }, "\(names)")
    }

    @Test func aFileOfOtherBytesIsMovedAsideWithTheTimeInItsName() throws {
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let (database, replacement) = try LibraryDatabase.openReplacingDamage(path: path, now: 1_764_603_000)
        #expect(replacement?.movedTo == path + ".damaged-20251201-153000")
        #expect(replacement?.reason == "file is not a database")
        let volumes = try database.rowCount("volumes")
        #expect(volumes == 0)
        let moved = try Data(contentsOf: URL(fileURLWithPath: path + ".damaged-20251201-153000"))
        #expect(moved == Data(repeating: 0x41, count: 4096))
    }

    @Test func onlyTheNewestDamagedCopyIsKept() throws {
        for (index, now) in [1_000_000_000, 1_000_000_100, 1_000_000_200].enumerated() {
            try Data(repeating: UInt8(index), count: 512).write(to: URL(fileURLWithPath: path))
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            _ = try LibraryDatabase.openReplacingDamage(path: path, now: Int64(now))
        }
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("damaged") }
        #expect(copies == ["library.db.damaged-20010909-015000"])
    }

    @Test func aDatabaseFromANewerShuffleboxIsNotTakenForDamage() throws {
        _ = try LibraryDatabase(path: path, create: true)
        let run = try Run.program("/usr/bin/sqlite3", [path, "PRAGMA user_version = 99"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(throws: LibraryError.self) { _ = try LibraryDatabase.openReplacingDamage(path: path, now: 0) }
        #expect(FileManager.default.fileExists(atPath: path))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.contains("damaged") }, "\(names)")
    }
}
