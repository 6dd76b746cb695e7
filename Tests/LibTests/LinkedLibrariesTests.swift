import LibALSA
import LibFFmpeg
import LibFLAC
import LibGPIOD
import LibMPG123
import LibSQLite
import LibSndFile
import LibVorbis
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

/// The decoder libraries beyond libmpg123 are found and callable; FFmpeg is loaded at run time only.
@Suite struct DecoderLibrariesTests {
    @Test func flacAndVorbisAreLinkedAndReportAVersion() {
        #expect(FLACLibrary.version.hasPrefix("1."))
        #expect(VorbisDecoder.libraryVersion.contains("Vorbis"))
    }

    @Test func sndfileIsLinkedAndReportsAVersion() { #expect(SndFileLibrary.version.hasPrefix("libsndfile-1.")) }

    @Test func ffmpegLoadsOnFirstUse() {
        let version = FFmpegLibrary.avcodecVersion
        #expect(version != nil, "libavcodec could not be loaded")
    }

    /// Linking FFmpeg would map ~130 libraries into every player at start; `shufflebox` must not need it.
    @Test func theExecutableDoesNotLinkFFmpeg() throws {
        let result = try Run.program("/usr/bin/ldd", [PackagePaths.shufflebox.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("libFLAC"), "libFLAC is linked")
        #expect(!result.stdout.contains("libavcodec") && !result.stdout.contains("libavformat"), "\(result.stdout)")
    }
}
