// swift-tools-version: 6.0
// Shufflebox: a headless shuffle player for a Raspberry Pi–class board.
// Layout and dependency rules: see README.md ("How the code is laid out").
// Tools version 6.0: Debian 13 (Raspberry Pi OS 13) ships Swift 6.0.3, and the same manifest serves 6.3.
import PackageDescription

/// Swift 6 mode, and warnings are errors (`-warnings-as-errors`: `.treatAllWarnings` needs tools 6.2).
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-warnings-as-errors"]),
    // Each function in a section of its own, so that the linker can lay out `shufflebox`'s by
    // Sources/shufflebox/hot-functions.txt (see the target), as the static Swift runtime's already are.
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

/// A thin `systemLibrary` target for one Debian C library, found through pkg-config.
func cLibrary(_ name: String, pkg: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkg, providers: [.apt([apt])])
}

let package = Package(
    name: "Shufflebox",
    products: [
        .executable(name: "shufflebox", targets: ["shufflebox"]),
        // AAC and ALAC for the player: FFmpeg in a process of its own (Sources/shufflebox-decoder/main.swift).
        .executable(name: "shufflebox-decoder", targets: ["shufflebox-decoder"]),
        // Spoken phrases for the player: espeak-ng in a process of its own (Sources/shufflebox-speech/main.swift).
        .executable(name: "shufflebox-speech", targets: ["shufflebox-speech"]),
    ],
    targets: [
        // MARK: C libraries from Debian
        cLibrary("CSQLite", pkg: "sqlite3", apt: "libsqlite3-dev"),
        cLibrary("CALSA", pkg: "alsa", apt: "libasound2-dev"),
        cLibrary("CMPG123", pkg: "libmpg123", apt: "libmpg123-dev"),
        cLibrary("CGPIOD", pkg: "libgpiod", apt: "libgpiod-dev"),
        cLibrary("CEspeakNG", pkg: "espeak-ng", apt: "libespeak-ng-dev"),
        cLibrary("CFLAC", pkg: "flac", apt: "libflac-dev"),
        cLibrary("CVorbisFile", pkg: "vorbisfile", apt: "libvorbis-dev"),
        cLibrary("COpusFile", pkg: "opusfile", apt: "libopusfile-dev"),
        cLibrary("CEBUR128", pkg: "libebur128", apt: "libebur128-dev"),
        cLibrary("CSndFile", pkg: "sndfile", apt: "libsndfile1-dev"),
        // FFmpeg's headers only (AAC and ALAC in MP4, PCM in WAV and AIFF): LibFFmpeg loads libavformat, libavcodec
        // and libavutil with dlopen on first use (Sources/CFFmpeg/shim.h says why), so there is no pkg-config
        // (its --libs would link them). The headers sit in the multiarch include folder clang searches anyway.
        .systemLibrary(name: "CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CLinux"),  // signalfd, timerfd, eventfd: in libc, missing from Swift's Glibc module

        // MARK: Thin typed wrappers (know nothing of the domain)
        .target(name: "LibSQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        .target(name: "LibALSA", dependencies: ["CALSA"], swiftSettings: strict),
        .target(name: "LibMPG123", dependencies: ["CMPG123"], swiftSettings: strict),
        .target(name: "LibFLAC", dependencies: ["CFLAC"], swiftSettings: strict),
        .target(name: "LibVorbis", dependencies: ["CVorbisFile"], swiftSettings: strict),
        .target(name: "LibOpus", dependencies: ["COpusFile"], swiftSettings: strict),
        .target(name: "LibFFmpeg", dependencies: ["CFFmpeg"], swiftSettings: strict),
        // PCM in WAV and AIFF.
        .target(name: "LibSndFile", dependencies: ["CSndFile"], swiftSettings: strict),
        // EBU R128 loudness and true peak (the background loudness scan).
        .target(name: "LibEBUR128", dependencies: ["CEBUR128"], swiftSettings: strict),
        .target(name: "LibGPIOD", dependencies: ["CGPIOD"], swiftSettings: strict),
        .target(name: "LibLinux", dependencies: ["CLinux"], swiftSettings: strict),
        // Speech synthesis (espeak-ng's global state behind one lock), for shufflebox-speech.
        .target(name: "LibEspeakNG", dependencies: ["CEspeakNG", "LibPThread"], swiftSettings: strict),
        // A pthread mutex ThreadSanitizer can see (Synchronization.Mutex's futex hand-over it cannot).
        .target(name: "LibPThread", swiftSettings: strict),

        // MARK: Pure domain
        .target(name: "ShuffleCore", swiftSettings: strict),

        // MARK: Adapters
        // The player's helper processes (shufflebox-decoder, shufflebox-speech) and the messages to and from them.
        .target(name: "HelperWire", swiftSettings: strict),
        .target(name: "MediaProbe", dependencies: ["ShuffleCore"], swiftSettings: strict),
        .target(name: "MusicLibrary", dependencies: ["ShuffleCore", "MediaProbe", "LibSQLite", "LibPThread"], swiftSettings: strict),
        .target(
            name: "Playback",
            dependencies: [
                "ShuffleCore", "LibALSA", "LibMPG123", "LibFLAC", "LibVorbis", "LibOpus", "LibSndFile", "HelperWire",
                "LibPThread", "LibEBUR128", "LibLinux",
            ],
            swiftSettings: strict),
        .target(name: "Buttons", dependencies: ["ShuffleCore", "LibGPIOD"], swiftSettings: strict),
        // The status light: a kernel LED-class device (sysfs), blinking by the kernel's own triggers.
        .target(name: "Indicator", dependencies: ["ShuffleCore"], swiftSettings: strict),
        // Spoken phrases as PCM: each segment by shufflebox-speech, in the voice its script chose; a small cache.
        .target(name: "Speech", dependencies: ["ShuffleCore", "HelperWire", "LibPThread"], swiftSettings: strict),

        // MARK: Composition root and executables
        .target(
            name: "ShuffleDaemon",
            dependencies: [
                "ShuffleCore", "MusicLibrary", "Playback", "Buttons", "Indicator", "Speech", "LibLinux", "LibPThread",
            ],
            swiftSettings: strict
        ),
        // Linked by lld (in both toolchains: /opt/swift's and Debian 13's swiftlang) with packed relative
        // relocations (DT_RELR; glibc 2.36+, so Debian 12 and 13): the static Swift runtime's ~30,000
        // relocations take 6 KB instead of the 718 KB that gold's RELA table made the loader read at every
        // start, and that stayed resident (the idle daemon's RSS: 17.9 -> 16.5 MiB).
        // And with the functions the appliance runs laid out together, first (Sources/shufflebox/hot-functions.txt,
        // made by scripts/order-functions): the kernel maps code 64 KiB around each page touched, and the few
        // hundred KiB of functions a day of playing runs, scattered through the 7 MB of code, had 5.8 MiB of it
        // resident in the daemon.
        .executableTarget(
            name: "shufflebox", dependencies: ["ShuffleDaemon"], exclude: ["hot-functions.txt"], swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/shufflebox/hot-functions.txt",
                    "-Xlinker", "--no-warn-symbol-ordering",
                ])
            ]),
        // FFmpeg (AAC, ALAC) in a process of its own, started by the player: its 25 MiB and any crash on a
        // hostile file stay out of the daemon.
        .executableTarget(
            name: "shufflebox-decoder", dependencies: ["HelperWire", "LibFFmpeg"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]),
        // espeak-ng in a process of its own, started for each phrase the player renders: a title from a stick is
        // untrusted text, and espeak-ng's libraries and data would otherwise stay in the daemon (~4 MiB).
        .executableTarget(
            name: "shufflebox-speech", dependencies: ["HelperWire", "LibEspeakNG"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]),
        // In-process search latency at 100,000 tracks for `make bench` (scripts/bench).
        .executableTarget(
            name: "ShuffleboxBench", dependencies: ["ShuffleCore", "MusicLibrary", "LibSQLite", "Playback"],
            swiftSettings: strict),
        .executableTarget(
            name: "ShuffleboxFuzz", dependencies: ["ShuffleCore", "MediaProbe", "MusicLibrary", "LibMPG123"],
            swiftSettings: strict),

        // MARK: Tests
        .target(name: "ShuffleTestSupport", dependencies: ["ShuffleCore", "LibPThread"], swiftSettings: strict),
        .testTarget(name: "ShuffleCoreTests", dependencies: ["ShuffleCore", "ShuffleTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LibTests",
            dependencies: [
                "LibSQLite", "LibALSA", "LibMPG123", "LibGPIOD", "LibLinux", "LibEspeakNG", "LibFLAC", "LibVorbis",
                "LibOpus", "LibSndFile", "LibFFmpeg", "LibEBUR128", "ShuffleTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaProbeTests", dependencies: ["MediaProbe", "LibMPG123", "ShuffleTestSupport"], exclude: ["Fixtures", "Tools"],
            swiftSettings: strict),
        .testTarget(
            name: "MusicLibraryTests",
            dependencies: ["MusicLibrary", "ShuffleTestSupport", "LibPThread"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PlaybackTests", dependencies: ["Playback", "HelperWire", "ShuffleTestSupport", "LibPThread"],
            swiftSettings: strict),
        .testTarget(name: "ButtonsTests", dependencies: ["Buttons", "ShuffleTestSupport"], swiftSettings: strict),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "HelperWire", "ShuffleTestSupport"], swiftSettings: strict),
        .testTarget(name: "IndicatorTests", dependencies: ["Indicator", "ShuffleTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ShuffleDaemonTests",
            dependencies: ["ShuffleDaemon", "ShuffleTestSupport", "LibPThread", "Buttons"],
            swiftSettings: strict
        ),
    ]
)
