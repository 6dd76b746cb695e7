import ShuffleCore
import Testing

@Suite struct MountTableTests {
    static let sample = """
        22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
        29 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
        101 29 8:17 / /media/MY\\040STICK ro,nosuid,nodev,noexec,relatime shared:60 - vfat /dev/sdb1 ro,fmask=0022
        102 29 0:50 / /media/tab\\011and\\134slash rw shared:61 master:3 - tmpfs tmp\\040fs rw
        103 29 0:51 / /media rw - tmpfs tmpfs rw
        104 29 0:52 / /mediaother/x rw - tmpfs tmpfs rw
        105 101 0:53 / /media/MY\\040STICK rw - tmpfs over rw
        garbage line
        """

    @Test func parsesFieldsAndDecodesOctalEscapes() throws {
        let entries = MountTable.parse(Array(Self.sample.utf8))
        #expect(entries.count == 7)
        let stick = try #require(entries.first { $0.id == 101 })
        #expect(stick.mountPoint == PathBytes("/media/MY STICK"))
        #expect(stick.fsType == "vfat")
        #expect(stick.source == PathBytes("/dev/sdb1"))
        #expect(stick.device == "8:17")
        let odd = try #require(entries.first { $0.id == 102 })
        #expect(odd.mountPoint == PathBytes("/media/tab\tand\\slash"))
        #expect(odd.source == PathBytes("tmp fs"))
        #expect(odd.fsType == "tmpfs")
    }

    @Test func picksMountsStrictlyBelowRootsNewestPerMountPoint() {
        let entries = MountTable.parse(Array(Self.sample.utf8))
        let picked = MountTable.libraries(in: entries, roots: [PathBytes("/media/")])
        #expect(picked.map(\.id) == [102, 105])
    }

    @Test(arguments: [
        ("/media/a", "/media", true), ("/media/a/b", "/media", true), ("/media", "/media", false),
        ("/mediax/a", "/media", false), ("/media/a", "/media//", true), ("/x", "/", true), ("/", "/", false),
    ])
    func strictlyBelow(_ path: String, _ root: String, _ expected: Bool) {
        #expect(MountTable.isStrictlyBelow(PathBytes(path), PathBytes(root)) == expected)
    }

    @Test(arguments: [("a\\040b", "a b"), ("\\", "\\"), ("\\04", "\\04"), ("\\999", "\\999"), ("x\\012", "x\n")])
    func unescape(_ raw: String, _ expected: String) {
        #expect(MountTable.unescape(Array(raw.utf8)) == Array(expected.utf8))
    }

    @Test func nonUTF8MountPointsSurvive() {
        let line: [UInt8] = Array("7 1 0:1 / /media/".utf8) + [0xFF, 0xFE] + Array(" rw - vfat /dev/sdc1 rw".utf8)
        #expect(MountTable.parseLine(line)?.mountPoint.bytes.suffix(2) == [0xFF, 0xFE])
    }
}
