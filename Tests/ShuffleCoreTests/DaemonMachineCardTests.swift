import ShuffleCore
import Testing

/// The box's own card (its MUSIC partition under `card-root`) plays only while no stick does.
@Suite struct DaemonMachineCardTests {
    typealias M = DaemonMachine
    static let settings = M.Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false)
    static let card = M.Stick(id: "uuid:CA4D", mountPoint: "/card/MUSIC", known: true, storedLevel: 6, card: true)
    static let stick = M.Stick(id: "uuid:S1", mountPoint: "/media/S1", known: true, storedLevel: 10)

    private func acts(_ effects: [M.Effect]) -> [M.Effect] {
        effects.filter { if case .log = $0 { false } else { true } }
    }

    @Test func theCardPlaysWhenNoStickIsThere() {
        var machine = M(settings: Self.settings)
        let effects = acts(machine.handle(.started(present: [Self.card], lastPlayed: nil)))
        #expect(
            effects == [.startIndexing(Self.card), .startPlayback(Self.card, paused: false, level: 6, rampIn: true)])
        #expect(machine.active == Self.card)
    }

    @Test func aStickPresentAtStartUpPlaysEvenWhenTheCardPlayedLast() {
        var machine = M(settings: Self.settings)
        let effects = acts(machine.handle(.started(present: [Self.stick, Self.card], lastPlayed: "uuid:CA4D")))
        #expect(effects.last == .startPlayback(Self.stick, paused: false, level: 8, rampIn: true))
        #expect(machine.active == Self.stick)
    }

    @Test func aStickTakesOverAndItsRemovalReturnsToTheCard() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.card], lastPlayed: nil))
        let plugged = acts(machine.handle(.mounted(Self.stick)))
        #expect(
            plugged == [
                .stopPlayback, .startIndexing(Self.stick),
                .startPlayback(Self.stick, paused: false, level: 10, rampIn: false),
                .notify([.database, .player, .update, .playlist]),
            ])
        // Pulled: the card's own resume point (startPlayback opens the card's library where it was).
        let pulled = acts(machine.handle(.unmounted(mountPoint: "/media/S1")))
        #expect(
            pulled == [
                .stopIndexing(volumeID: "uuid:S1"), .stopPlayback,
                .startPlayback(Self.card, paused: false, level: 6, rampIn: false), .notify([.database, .player]),
            ])
        #expect(machine.active == Self.card)
    }

    @Test func theCardComingBackDoesNotInterruptAStick() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.card, Self.stick], lastPlayed: nil))
        #expect(machine.active == Self.stick)
        // A computer had the card as a USB drive; ejected, it is mounted again: indexed, not played.
        _ = machine.handle(.unmounted(mountPoint: "/card/MUSIC"))
        #expect(machine.active == Self.stick)
        let back = acts(machine.handle(.mounted(Self.card)))
        #expect(back == [.startIndexing(Self.card), .notify([.database])])
        #expect(machine.active == Self.stick)
        // The stick pulled later: the card plays.
        let pulled = acts(machine.handle(.unmounted(mountPoint: "/media/S1")))
        #expect(pulled.contains(.startPlayback(Self.card, paused: false, level: 6, rampIn: false)))
    }

    @Test func theCardBackFromTheComputerPlaysWhenNothingElseDoes() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.card], lastPlayed: nil))
        _ = machine.handle(.unmounted(mountPoint: "/card/MUSIC"))
        #expect(machine.state == .noLibrary)
        let back = acts(machine.handle(.mounted(Self.card)))
        #expect(back.contains(.startIndexing(Self.card)))
        #expect(back.contains(.startPlayback(Self.card, paused: false, level: 6, rampIn: false)))
    }

    @Test func aStickWinsOverTheCardWhenAnotherStickGoes() {
        var machine = M(settings: Self.settings)
        let other = M.Stick(id: "uuid:S2", mountPoint: "/media/S2", known: true)
        _ = machine.handle(.started(present: [Self.stick, Self.card], lastPlayed: nil))
        _ = machine.handle(.mounted(other))
        let pulled = acts(machine.handle(.unmounted(mountPoint: "/media/S2")))
        #expect(pulled.contains(.startPlayback(Self.stick, paused: false, level: 10, rampIn: false)))
    }
}
