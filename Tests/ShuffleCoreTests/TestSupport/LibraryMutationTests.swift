import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@Suite(.enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
struct LibraryMutationTests {
    @Test func mutateChangesFilesAndTheManifestDescribesTheNewTree() throws {
        let dir = try TemporaryDirectory()
        let root = PathBytes(dir.path)
        let before = try TestLibrary.generate(at: dir.url, tracks: 50, seed: 8)
        var statusBefore: [PathBytes: (size: Int64, mtime: Int64)] = [:]
        for row in before.rows { statusBefore[row.path] = try LibraryFiles.status(of: root.appending(row.path)) }

        let changes = try TestLibrary.mutate(at: dir.url, seed: 2)
        let after = try Manifest(libraryRoot: dir.url)
        #expect(try LibraryFiles.list(root: dir.url) == after.rows.map(\.path))
        for action in [LibraryMutation.Action.added, .retagged, .moved, .deleted, .broke] {
            #expect(changes.contains { $0.action == action }, "no \(action) change")
        }
        for change in changes {
            let old = statusBefore[change.path]
            switch change.action {
            case .added:
                #expect(old == nil && after.row(for: change.path)?.kind == .track)
            case .retagged:
                let now = try LibraryFiles.status(of: root.appending(change.path))
                #expect(now.size != old?.size && now.mtime != old?.mtime, "\(change.path.display)")
                #expect(after.row(for: change.path)?.title?.hasSuffix("(Remastered)") == true)
            case .moved:
                let target = try #require(change.newPath)
                #expect(after.row(for: change.path) == nil && after.row(for: target) != nil)
                let now = try LibraryFiles.status(of: root.appending(target))
                #expect(now.size == old?.size && now.mtime == old?.mtime, "\(target.display)")
            case .deleted:
                #expect(after.row(for: change.path) == nil)
            case .broke:
                #expect(after.row(for: change.path)?.kind == .broken)
            }
        }
        if ExternalTool.mpg123 != nil {
            for change in changes where change.action == .added || change.action == .retagged {
                let row = try #require(after.row(for: change.path))
                let frames = try ExternalTool.decodedFrames(of: root.appending(row.path), channels: row.channels ?? 2)
                #expect(frames == row.samples, "\(row.path.display)")
            }
        }
    }

    @Test(.enabled(if: PackagePaths.shared != nil, "needs the yardstick in ../shared"))
    func theYardsticksManifestParsesAndMatchesItsTree() throws {
        let dir = try TemporaryDirectory()
        let manifest = try TestLibrary.generateYardstick(at: dir.url, tracks: 40, seed: 6)
        #expect(try LibraryFiles.list(root: dir.url) == manifest.rows.map(\.path))
        #expect(!manifest.playable.isEmpty && manifest.playable.allSatisfy { $0.samples != nil && $0.rate != nil })
        let changes = try TestLibrary.mutate(at: dir.url, seed: 1)
        #expect(!changes.isEmpty)
        #expect(try LibraryFiles.list(root: dir.url) == Manifest(libraryRoot: dir.url).rows.map(\.path))
    }
}
