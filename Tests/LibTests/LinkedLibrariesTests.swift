import LibALSA
import LibGPIOD
import LibMPG123
import LibSQLite
import ShuffleTestSupport
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
    /// libgpiod 1.6 (Debian 12) or 2.x (Debian 13): the shim's build-time choice, the library linked and the
    /// one pkg-config names are the same major version.
    @Test func gpiodAPIMatchesTheLinkedLibraryAndPkgConfig() throws {
        let modversion = try Run.program("/usr/bin/pkg-config", ["--modversion", "libgpiod"])
        let major = modversion.stdout.split(separator: ".").first.map(String.init)
        #expect(major == String(GPIODLibrary.apiGeneration))
        #expect(GPIODLibrary.version.hasPrefix("\(GPIODLibrary.apiGeneration)."))
    }
}
