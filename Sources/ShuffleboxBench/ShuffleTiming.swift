import ShuffleCore

/// `ShuffleboxBench shuffle N...`: how long the balanced shuffle holds the engine for N tracks: a whole
/// cycle arranged at once (a stick's first start, each new cycle), and the tracks of a new stick joining
/// the order in batches of 500 as the index run finds them (the slowest batch is the longest wait a button
/// press or a client has while a big stick is indexed). A library of 700 artists and 7,000 albums.
func shuffleTiming(_ sizes: [Int]) {
    let clock = ContinuousClock()
    func ms(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(Int(value.rounded()))
    }
    for n in sizes {
        var groups = ShuffleGroups()
        let ids = (1...n).map { TrackID(Int64($0)) }
        for (index, id) in ids.enumerated() {
            groups.set(
                id,
                ShuffleTraits(artist: UInt32(index % 700 + 1), album: UInt32(index % 7000 + 1), pathRank: UInt32(index))
            )
        }
        var order = ShuffleOrder(tracks: [], random: SplitMix64(seed: 1), settings: .standard, groups: groups)
        let whole = clock.measure {
            order = ShuffleOrder(tracks: ids, random: SplitMix64(seed: 1), settings: .standard, groups: groups)
        }
        let next = clock.measure { order.startNewCycle(avoidingFirst: order.order.last) }
        var growing = ShuffleOrder(
            tracks: Array(ids.prefix(100)), random: SplitMix64(seed: 2), settings: .standard, groups: groups)
        var worst = Duration.zero
        var total = Duration.zero
        var start = min(100, n)
        while start < n {
            let batch = Array(ids[start..<min(n, start + 500)])
            let spent = clock.measure { growing.insert(batch) }
            worst = max(worst, spent)
            total += spent
            start += batch.count
        }
        print(
            "balanced shuffle, \(n) tracks: whole cycle \(ms(whole)) ms, next cycle \(ms(next)) ms; "
                + "joining in batches of 500: \(ms(total)) ms in all, slowest batch \(ms(worst)) ms")
    }
}
