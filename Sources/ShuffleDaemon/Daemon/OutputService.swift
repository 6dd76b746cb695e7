import Glibc
import LibLinux
import ShuffleCore

/// The outputs service: which sound device plays, chosen from the configured list by what each card is
/// (`OutputMachine`), and told again whenever the sound devices change. It watches `/dev/snd` with inotify
/// (a card's nodes are created and removed by the kernel, and udev hands them over with a change of owner and
/// mode): no timer runs, and nothing wakes while no device changes. A list of PCM names only (the `device`
/// setting alone) has nothing to watch. Confined to the event loop's thread.
final class OutputService: Service {
    let name = "outputs"

    /// Where the kernel lists its sound cards, its device nodes, and its display connectors (tests point
    /// them elsewhere).
    struct Paths {
        var cards = "/proc/asound/cards"
        var devices = "/dev"
        var connectors = "/sys/class/drm"

        /// The kernel's, or, under `$SHUFFLEBOX_SOUND_ROOT` (the daemon tests: a machine without sound cards
        /// stands in for the hardware edge), its `cards`, `dev` and `drm`.
        static var current: Paths {
            guard let root = Environment.value("SHUFFLEBOX_SOUND_ROOT"), !root.isEmpty else { return Paths() }
            return Paths(cards: root + "/cards", devices: root + "/dev", connectors: root + "/drm")
        }
    }

    /// How long after a device change the cards are read: a USB card's nodes come one after another, and
    /// udev's change of their mode comes after them.
    static let settle: Duration = .milliseconds(200)

    private let loop: EventLoop
    private var machine: OutputMachine
    private let paths: Paths
    private let log: Log
    private let perform: (OutputMachine.Effect) -> Void
    private var notify: INotify?
    /// The cards whose nodes changed since the last reading (nil: look at every card again).
    private var touched: Set<Int>? = []

    /// Creates the service for `outputs` (never empty); `perform` carries out what it decides.
    init(
        loop: EventLoop, outputs: [OutputSpec], paths: Paths = .current, log: Log,
        perform: @escaping (OutputMachine.Effect) -> Void
    ) {
        self.loop = loop
        machine = OutputMachine(outputs: outputs)
        self.paths = paths
        self.log = log
        self.perform = perform
    }

    /// Each output's state, in the list's order.
    var statuses: [OutputStatus] { machine.statuses }

    /// Reads the devices, picks the output, and starts watching for changes.
    func start() {
        if machine.outputs.contains(where: { !$0.isPlainPCM || $0.needsDisplay }) { startWatching() }
        let effects = machine.start(cards: readCards(), display: displayAttached())
        effects.forEach(perform)
    }

    /// The player says the device `pcm` failed; `gone` when it went away.
    func failed(pcm: String, reason: String, gone: Bool) {
        machine.failed(pcm: pcm, reason: reason, gone: gone).forEach(perform)
    }

    /// Stops watching.
    func stop() {
        if let notify { loop.unwatch(notify.descriptor) }
        notify = nil
        loop.setTimer(.outputsSettle, at: nil)
    }

    // MARK: - Watching

    private func startWatching() {
        do {
            let notify = try INotify()
            self.notify = notify
            watchSoundFolder(notify)
            loop.watch(notify.descriptor, events: Int16(POLLIN)) { [unowned self] _ in self.changed() }
        } catch {
            log.warning("cannot watch the sound devices (\(error)); outputs are chosen once, at start")
        }
    }

    /// `/dev/snd` when there is one; else `/dev`, to see it come (the first card of a box without one).
    private func watchSoundFolder(_ notify: INotify) {
        let snd = paths.devices + "/snd"
        if FileSystem.isFolder(snd) {
            try? notify.watch(snd, for: [.created, .deleted, .moved, .attributes])
        } else if !notify.isWatching(paths.devices) {
            try? notify.watch(paths.devices, for: [.created])
        }
    }

    private func changed() {
        guard let notify else { return }
        let names = notify.take()
        if names.contains("snd") && !notify.isWatching(paths.devices + "/snd") {
            watchSoundFolder(notify)
            touched = nil
        }
        // Only sound nodes matter (in /dev itself anything may come and go): controlC1, pcmC1D0p, ...
        let cards = names.compactMap(Self.cardNumber)
        guard !cards.isEmpty || touched == nil else { return }
        touched?.formUnion(cards)
        loop.setTimer(.outputsSettle, after: Self.settle) { [unowned self] in
            let cards = self.readCards()
            let touched = self.touched
            self.touched = []
            self.log.debug("sound devices changed: \(cards.map { "\($0.index) [\($0.id)] \($0.driver)" })")
            self.machine.devicesChanged(cards: cards, display: self.displayAttached(), touched: touched)
                .forEach(self.perform)
        }
    }

    /// The card a node of /dev/snd belongs to: 1 for `controlC1`, `pcmC1D0p`, `hwC1D0`, `midiC1D0`; nil for
    /// `timer`, `seq` and names of no card.
    static func cardNumber(_ name: String) -> Int? {
        guard let c = name.firstIndex(of: "C"), name[..<c].allSatisfy(\.isLowercase), !name[..<c].isEmpty else {
            return nil
        }
        let digits = name[name.index(after: c)...].prefix { $0.isNumber }
        return Int(digits)
    }

    // MARK: - Reading

    private func readCards() -> [SoundCard] {
        guard let bytes = try? FileSystem.contents(of: paths.cards, limit: 64 * 1024) else { return [] }
        return SoundCard.parse(procCards: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether any HDMI connector says `connected` (`/sys/class/drm/card0-HDMI-A-1/status`).
    private func displayAttached() -> Bool {
        guard let names = FileSystem.names(inFolder: paths.connectors) else { return false }
        return names.filter { $0.contains("HDMI") }.contains { name in
            let status = (try? FileSystem.contents(of: paths.connectors + "/" + name + "/status", limit: 64)) ?? []
            return String(decoding: status, as: UTF8.self).hasPrefix("connected")
        }
    }
}
