import Foundation
import LibSQLite
import Testing

/// LibSQLite against real database files in a temporary folder.
@Suite struct SQLiteConnectionTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "libsqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func bindsAndReadsEveryType() throws {
        let db = try Connection(path: folder + "/types.db")
        try db.execute("CREATE TABLE t(i INTEGER, d REAL, s TEXT, b BLOB, n)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)")
        try insert.bind(Int64.min, at: 1)
        try insert.bind(2.5, at: 2)
        try insert.bind("Beyoncé \u{0} 東京", at: 3)
        try insert.bind(blob: [0xFF, 0x00, 0x80], at: 4)
        try insert.bindNull(at: 5)
        try insert.run()
        #expect(db.changes == 1)
        #expect(db.lastInsertRowID == 1)
        let select = try db.prepare("SELECT i, d, s, b, n FROM t")
        #expect(try select.step() == .row)
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.doubleOrNil(at: 1) == 2.5)
        #expect(select.text(at: 2) == "Beyoncé \u{0} 東京")
        #expect(select.blob(at: 3) == [0xFF, 0x00, 0x80])
        #expect(select.isNull(at: 4))
        #expect(select.int64OrNil(at: 4) == nil)
        #expect(select.text(at: 4) == nil)
        #expect(try select.step() == .done)
    }

    @Test func emptyTextAndBlobStayNotNull() throws {
        let db = try Connection(path: folder + "/empty.db")
        try db.execute("CREATE TABLE t(s TEXT, b BLOB)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2)")
        try insert.bind("", at: 1)
        try insert.bind(blob: [], at: 2)
        try insert.run()
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE s IS NOT NULL AND b IS NOT NULL") == 1)
    }

    @Test func failedTransactionRollsBack() throws {
        let db = try Connection(path: folder + "/tx.db")
        try db.execute("CREATE TABLE t(x INTEGER UNIQUE)")
        #expect(throws: SQLiteError.self) {
            try db.transaction { () throws(SQLiteError) in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(db.isAutocommit)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        try db.transaction { () throws(SQLiteError) in try db.execute("INSERT INTO t VALUES (2)") }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func errorsCarryCodeFunctionMessageAndSQL() throws {
        let db = try Connection(path: folder + "/err.db")
        do {
            _ = try db.prepare("SELECT * FROM missing_table")
            Issue.record("prepare should have failed")
        } catch {
            #expect(error.code == 1)
            #expect(error.function == "sqlite3_prepare_v2")
            #expect(error.message.contains("missing_table"))
            #expect(error.sql == "SELECT * FROM missing_table")
        }
        try db.execute("CREATE TABLE t(x INTEGER UNIQUE)")
        try db.execute("INSERT INTO t VALUES (1)")
        let insert = try db.prepare("INSERT INTO t VALUES (1)")
        do {
            try insert.run()
            Issue.record("step should have failed")
        } catch {
            #expect(error.isConstraint)
            #expect(error.extendedCode != error.code)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.function == "sqlite3_step")
        }
    }

    @Test func openingInAFolderThatCannotExistFails() {
        #expect(throws: SQLiteError.self) {
            _ = try Connection(path: "/proc/no-such-place/x.db")
        }
        do {
            _ = try Connection(path: folder + "/missing.db", flags: [.readWrite])
            Issue.record("opening a missing file without .create should fail")
        } catch {
            #expect(error.function == "sqlite3_open_v2")
            #expect(error.code == 14)  // SQLITE_CANTOPEN
        }
    }

    @Test func writingAReadOnlyConnectionSaysSo() throws {
        let path = folder + "/ro.db"
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t(x)")
        }
        let readOnly = try Connection(path: path, flags: [.readOnly])
        do {
            try readOnly.execute("INSERT INTO t VALUES (1)")
            Issue.record("a read-only connection accepted a write")
        } catch {
            #expect(error.isNotWritable)
            #expect(error.message.contains("readonly"))
        }
    }

    @Test func statementOutlivesItsLastOtherReference() throws {
        var db: Connection? = try Connection(path: folder + "/keep.db")
        let statement = try db!.prepare("SELECT 42")
        db = nil  // the statement holds the connection
        #expect(try statement.step() == .row)
        #expect(statement.int64(at: 0) == 42)
        statement.reset()
        #expect(try statement.step() == .row)
    }

    @Test func fts5WithDiacriticRemovalIsAvailable() throws {
        let db = try Connection(path: folder + "/fts.db")
        try db.execute("CREATE VIRTUAL TABLE f USING fts5(a, tokenize = 'unicode61 remove_diacritics 2')")
        try db.execute("INSERT INTO f VALUES ('Beyoncé')")
        let match = try db.prepare("SELECT count(*) FROM f WHERE f MATCH ?1")
        try match.bind("\"beyonce\"", at: 1)
        #expect(try match.step() == .row)
        #expect(match.int64(at: 0) == 1)
    }
}
