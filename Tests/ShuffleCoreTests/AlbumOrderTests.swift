import ShuffleCore
import Testing

@Suite struct AlbumOrderTests {
    /// Three albums (numbers 1–3) of 3, 2 and 4 tracks, ids in scrambled order; `place` is disc × 65,536 + track.
    static func library() -> ShapedLibrary {
        var library = ShapedLibrary()
        let rows: [(album: UInt32, place: UInt32)] = [
            (2, 2), (1, 3), (3, 1 << 16 | 2), (1, 1), (3, 2 << 16 | 1), (2, 1), (3, 1 << 16 | 1), (1, 2),
            (3, 1 << 16 | 3),
        ]
        for row in rows { library.add(artist: row.album, album: row.album, place: row.place) }
        return library
    }

    /// The albums of `order` as runs, and whether each run is in disc and track order.
    func runs(_ order: [TrackID], _ library: ShapedLibrary) -> [(album: UInt32, sorted: Bool)] {
        var result: [(UInt32, [UInt32])] = []
        for id in order {
            let traits = library.groups[id]
            if result.last?.0 == traits.album { result[result.count - 1].1.append(traits.albumPlace) } else {
                result.append((traits.album, [traits.albumPlace]))
            }
        }
        return result.map { ($0.0, $0.1 == $0.1.sorted()) }
    }

    @Test func everyAlbumPlaysOncePerCycleWholeAndInDiscAndTrackOrder() {
        let library = Self.library()
        var seenFirst: Set<UInt32> = []
        for seed in 0..<40 as Range<UInt64> {
            var order = ShuffleOrder(
                tracks: library.ids, random: SplitMix64(seed: seed), settings: ShuffleSettings(mode: .albums),
                groups: library.groups)
            for _ in 0..<3 {
                let cycle = order.order
                #expect(cycle.sorted() == library.ids)
                let albums = runs(cycle, library)
                #expect(albums.map(\.album).sorted() == [1, 2, 3], "each album once, whole")
                #expect(albums.allSatisfy { $0.sorted })
                seenFirst.insert(albums[0].album)
                let lastAlbum = albums.last?.album
                order.startNewCycle(avoidingFirst: cycle.last)
                #expect(library.groups[order.order[0]].album != lastAlbum, "the next cycle starts another album")
            }
        }
        #expect(seenFirst == [1, 2, 3], "every album gets to go first")
    }

    @Test func aTrackOfAnAlbumStillToComeJoinsItAtItsPlaceAndANewAlbumJoinsWhole() {
        let library = Self.library()
        var partial = library.ids
        let late = partial.remove(at: 4)  // album 3, disc 2 track 1
        var order = ShuffleOrder(
            tracks: partial, random: SplitMix64(seed: 4), settings: ShuffleSettings(mode: .albums),
            groups: library.groups)
        order.insert([late])
        #expect(runs(order.order, library).map(\.album).sorted() == [1, 2, 3])
        #expect(runs(order.order, library).allSatisfy { $0.sorted })

        var more = library
        for track in [2, 1] as [UInt32] { more.add(artist: 9, album: 9, place: track) }
        var growing = ShuffleOrder(
            tracks: library.ids, random: SplitMix64(seed: 4), settings: ShuffleSettings(mode: .albums),
            groups: more.groups)
        growing.advance()
        let current = growing.current
        growing.insert([TrackID(10), TrackID(11)])
        #expect(growing.current == current)
        let albums = runs(growing.order, more)
        #expect(albums.map(\.album).sorted() == [1, 2, 3, 9])
        #expect(albums.allSatisfy { $0.sorted })
    }

    @Test func inOrderPlaysThePathOrderAndNewTracksJoinAtTheirPlace() {
        var library = ShapedLibrary(["A1", "A1", "B1", "C1", "C2"])
        var order = ShuffleOrder(
            tracks: library.ids.reversed(), random: SplitMix64(seed: 1), settings: ShuffleSettings(mode: .inOrder),
            groups: library.groups)
        #expect(order.order == library.ids)
        library.add(artist: 1, album: 1)
        order.updateGroups(library.groups)
        order.insert([TrackID(6)])
        #expect(order.order == (1...6).map { TrackID(Int64($0)) })
    }

    @Test func groupsNumberArtistsAndAlbumsIgnoringCaseAndFallBackToTheFolder() {
        var groups = ShuffleGroups()
        groups.add(TrackID(1), artist: "Abba", album: "Gold", albumArtist: nil, folder: Array("a".utf8), disc: 1, track: 2)
        groups.add(TrackID(2), artist: " ABBA ", album: "gold", albumArtist: nil, folder: Array("b".utf8), disc: nil, track: 1)
        groups.add(TrackID(3), artist: "Other", album: "Gold", albumArtist: nil, folder: Array("a".utf8), disc: nil, track: nil)
        groups.add(TrackID(4), artist: nil, album: nil, albumArtist: nil, folder: Array("x".utf8), disc: nil, track: nil)
        groups.add(TrackID(5), artist: nil, album: "", albumArtist: nil, folder: Array("x".utf8), disc: nil, track: nil)
        #expect(groups[TrackID(1)].artist == groups[TrackID(2)].artist)
        #expect(groups[TrackID(1)].album == groups[TrackID(2)].album)
        #expect(groups[TrackID(1)].album != groups[TrackID(3)].album, "one title by two artists is two albums")
        #expect(groups[TrackID(4)].artist == 0)
        #expect(groups[TrackID(4)].album == groups[TrackID(5)].album, "no album tag: the folder is the album")
        #expect(groups[TrackID(1)].albumPlace == 1 << 16 | 2)
        #expect(groups[TrackID(5)].pathRank == 4)
        groups.add(TrackID(6), artist: " \t ", album: "  ", albumArtist: nil, folder: Array("x".utf8), disc: nil, track: nil)
        #expect(groups[TrackID(6)].artist == 0, "only spaces: no artist")
        #expect(groups[TrackID(6)].album == groups[TrackID(4)].album, "only spaces: no album tag, the folder")
        #expect(groups[TrackID(99)] == .unknown)
    }
}
