import Foundation
import LibSQLite
import ShuffleCore
import Testing

@testable import MusicLibrary

/// What every connection to the library database is set up with, whether it created the file or not.
@Suite struct ConnectionSetupTests {
    @Test func everyConnectionKeepsASmallPageCache() throws {
        let fixture = try LibraryFixture(name: "cache")
        defer { try? FileManager.default.removeItem(atPath: fixture.folder) }
        let reopened = try LibraryDatabase(path: fixture.folder + "/library.db", create: false)
        for database in [fixture.database, reopened] {
            let pages = try database.connection.scalarInt("PRAGMA cache_size")
            #expect(pages == Int64(Schema.cacheSizeKiB), "SQLite's default is -2000 (KiB)")
            #expect(Schema.cacheSizeKiB < 0 && Schema.cacheSizeKiB > -2000)
        }
    }
}
