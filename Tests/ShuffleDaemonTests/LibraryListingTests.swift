import ShuffleCore
import Testing

@testable import ShuffleDaemon

/// The listing finds every track by its id, whether the ids run close together (a table) or far apart (a
/// search), and finds nothing for an id it does not hold.
@Suite struct LibraryListingTests {
    private func listing(_ ids: [Int64]) -> LibraryListing {
        var builder = SongList.Builder(expectedCount: ids.count)
        for id in ids { builder.add(SongInfo(id: id, path: "p\(id).mp3", title: "t\(id)")) }
        return LibraryListing(builder)
    }

    /// Row ids with gaps (unplayable files), starting late; a wide spread; the extremes of Int64; one.
    static let idSets: [[Int64]] = {
        let gapped: [Int64] = Array(Int64(500)...2_500).filter { $0 % 7 != 0 }
        let spread: [Int64] = (0..<400).map { (n: Int) -> Int64 in Int64(n) * 1_000_003 - 5 }
        let extremes: [Int64] = [Int64.min, -1, 0, 1, Int64.max]
        return [gapped, spread, extremes, [42]]
    }()

    @Test(arguments: idSets)
    func everyIdIsFoundAndOnlyThose(_ ids: [Int64]) {
        let listing = listing(ids.shuffled())
        for id in ids {
            #expect(listing[id: id]?.path == "p\(id).mp3", "\(id)")
        }
        let held = Set(ids)
        let probes: [Int64] = [Int64.min, Int64.min + 1, -2, 2, 499, 501, 2_501, 7_000, Int64.max - 1, Int64.max]
        for probe in probes + ids.map({ $0 &+ 1 }) where !held.contains(probe) {
            #expect(listing[id: probe] == nil, "\(probe)")
        }
    }
}
