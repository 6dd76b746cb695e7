import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

/// `list` and `search` on a stick whose file names hold newlines, ESC and backslashes.
@Suite struct HostileNameTests {
    @Test func listPrintsNoRawControlCharactersAndKeepsEscapesApartFromBackslashes() throws {
        let scratch = try TemporaryDirectory(prefix: "hostile-names")
        let stick = scratch.appending("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        let audio = Data(HostileFiles.silentFrames(20))
        let names: [[UInt8]] = [
            Array("two\nlines.mp3".utf8), Array("\u{1B}[2Jclear.mp3".utf8), Array("back\\xFFslash.mp3".utf8),
            [0x62, 0x61, 0x63, 0x6B, 0xFF, 0x73, 0x6C, 0x61, 0x73, 0x68] + Array(".mp3".utf8),
        ]
        for name in names {
            let folder: [CChar] = Array(stick.path.utf8CString.dropLast())
            let file: [CChar] = name.map { CChar(bitPattern: $0) }
            let path: [CChar] = folder + [CChar(bitPattern: 0x2F)] + file + [0]
            let fd = path.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            #expect(fd >= 0)
            _ = audio.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let db = scratch.path + "/library.db"
        let index = try Run.shufflebox(["index", stick.path, "--db", db])
        #expect(index.status == 0, "\(index.stderr)")
        for command in [["list"], ["search", "two"], ["search", "back"]] {
            let result = try Run.shufflebox(command + ["--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            let controls = result.stdoutData.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
            #expect(controls.isEmpty, "\(command): raw control bytes \(controls)")
            #expect(!result.stdout.split(separator: "\n").isEmpty, "\(command) found nothing")
        }
        let lines = try Run.shufflebox(["list", "--db", db]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == names.count, "one line per file: \(lines)")
        #expect(lines.contains { $0.hasSuffix("(two\\x0Alines.mp3)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("(\\x1B[2Jclear.mp3)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("(back\\\\xFFslash.mp3)") }, "a real backslash: \(lines)")
        #expect(lines.contains { $0.hasSuffix("(back\\xFFslash.mp3)") }, "a byte that is not UTF-8: \(lines)")
        // In JSON both names' `path` reads `back\xFFslash.mp3`; `pathHex` holds the bytes of the one that is not
        // UTF-8, and is null for the one whose name really has a backslash.
        let objects = try Run.shufflebox(["list", "--json", "--db", db]).stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let twins = objects.filter { ($0["path"] as? String)?.hasSuffix("back\\xFFslash.mp3") == true }
        #expect(twins.count == 2, "\(objects)")
        let hexes = twins.map { $0["pathHex"] as? String ?? "null" }.sorted()
        let nameHex = names[3].map { String(format: "%02x", $0) }.joined()
        #expect(hexes.count == 2 && hexes[0].hasSuffix(nameHex) && hexes[1] == "null", "\(twins)")
    }
}
