import LibALSA
import LibGPIOD
import LibMPG123
import LibSQLite
import Testing

/// Proves that every C library is found through pkg-config, linked, and callable.
@Suite struct LinkedLibrariesTests {
    @Test func sqliteIsThreeFortyOrLater() {
        let parts = SQLiteLibrary.version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2)
        #expect(parts[0] == 3 && parts[1] >= 35, "FTS5 and RETURNING need sqlite 3.35+")
    }
    @Test func alsaReportsAVersion() { #expect(ALSALibrary.version.hasPrefix("1.")) }
    @Test func mpg123HeadersAreRecentEnough() { #expect(MPG123Library.apiVersion >= 44) }
    @Test func gpiodIsTheOnePointSixAPI() { #expect(GPIODLibrary.version.hasPrefix("1.")) }
}
