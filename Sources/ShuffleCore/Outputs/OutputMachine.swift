/// Which output plays: the first of the configured list that is present, usable and has not failed since the
/// sound devices last changed. Pure: the shell reads the cards and the display, performs the effects, and
/// tells it when a device failed to open or went away.
///
/// The rules a person expects from a player:
/// - a device that will not open is skipped, and the next output plays from the same place; the skipped
///   ones are tried again only when the sound devices change (a card comes or goes), never on a timer;
/// - an output higher in the list that appears (a USB DAC plugged in) takes over, still playing;
/// - when the output in use goes away (the DAC or headphones unplugged) the music pauses, as a phone does
///   when headphones are pulled, so that it never suddenly plays aloud in the room; the next play goes to
///   the next output, from the same place.
public struct OutputMachine: Equatable, Sendable {
    /// What the shell must do.
    public enum Effect: Equatable, Sendable {
        /// Play through `pcm` (the output `name`), from where the music is now.
        case use(name: String, pcm: String)
        /// Pause the music: the output it played through went away.
        case pause
        /// No output works; `reason` says why, output by output.
        case noOutput(reason: String)
        /// A line for the log.
        case log(Log.Level, String)
    }

    /// The list, in order of preference.
    public let outputs: [OutputSpec]
    /// The cards the kernel has now.
    public private(set) var cards: [SoundCard] = []
    /// Whether a display is attached (for outputs that need one).
    public private(set) var display = false
    /// Outputs that failed since the devices last changed, with the reason.
    public private(set) var failures: [String: String] = [:]
    /// The output handed to the player, and its PCM.
    private var inUseName: String?
    private var inUsePCM = ""
    /// The card the output in use matched, to tell when it goes away.
    private var inUseCard: String?

    /// Creates the machine for a list (never empty: `DaemonConfig.outputList` gives `device` as one output).
    public init(outputs: [OutputSpec]) {
        self.outputs = outputs
    }

    /// The output handed to the player (nil while none works).
    public var current: String? { inUseName }
    /// The PCM to play through now, if any output is usable.
    public var pcm: String? { inUseName == nil ? nil : inUsePCM }

    /// The devices as found at start: picks the output.
    public mutating func start(cards: [SoundCard], display: Bool) -> [Effect] {
        self.cards = cards
        self.display = display
        return choose(removed: false)
    }

    /// The sound devices changed (a card came or went, the display, or the nodes of the cards numbered in
    /// `touched`: udev handing them over): a skipped output is tried again when its own card changed (nil:
    /// every one), so a card that stays busy is not tried, with a gap in the music, whenever another one
    /// comes or goes. The best usable output plays, and the music pauses if the one it played through is gone.
    public mutating func devicesChanged(cards: [SoundCard], display: Bool, touched: Set<Int>? = nil) -> [Effect] {
        let before = self.cards
        let displayChanged = display != self.display
        self.cards = cards
        self.display = display
        if let touched {
            let changed = touched.union(Set(before.map(\.index)).symmetricDifference(cards.map(\.index)))
            for spec in outputs where failures[spec.name] != nil {
                let was = spec.match(in: before), now = spec.match(in: cards)
                let again =
                    was != now || (now.map { changed.contains($0.index) } ?? false)
                    || (spec.needsDisplay && displayChanged) || (spec.isPlainPCM && !changed.isEmpty)
                if again { failures[spec.name] = nil }
            }
        } else {
            failures = [:]
        }
        let removed = inUseName.map { !usable($0) } ?? false
        return choose(removed: removed)
    }

    /// Opening or playing through `pcm` failed with `reason`; `gone` when the device itself went away (unplugged)
    /// rather than refusing. A report about a PCM no longer in use is old news and ignored; one while no
    /// output works (a player started meanwhile) says so again.
    public mutating func failed(pcm: String, reason: String, gone: Bool) -> [Effect] {
        guard let name = inUseName else { return [.noOutput(reason: noOutputReason)] }
        guard pcm == inUsePCM else { return [] }
        failures[name] = reason
        return [.log(.warning, "output \(name) (\(pcm)) does not work: \(reason); trying the next")]
            + choose(removed: gone)
    }

    /// Each output's state, in the list's order, for `shufflebox outputs`, `status` and MPD clients.
    public var statuses: [OutputStatus] {
        outputs.map { spec in
            let card = spec.match(in: cards)
            let state: OutputStatus.State
            if spec.name == inUseName {
                state = .inUse
            } else if let reason = failures[spec.name] {
                state = .failed(reason)
            } else if !spec.isPlainPCM && card == nil {
                state = .notPresent
            } else if spec.needsDisplay && !display {
                state = .noDisplay
            } else {
                state = .ready
            }
            return OutputStatus(
                name: spec.name, card: card, pcm: spec.isPlainPCM || card != nil ? spec.pcmName(for: card) : nil,
                match: spec.matchDescription, state: state)
        }
    }

    // MARK: - Choosing

    private func usable(_ name: String) -> Bool {
        guard let spec = outputs.first(where: { $0.name == name }) else { return false }
        if spec.needsDisplay && !display { return false }
        if spec.isPlainPCM { return true }
        guard let card = spec.match(in: cards) else { return false }
        // The same output on another card (a second USB DAC) is another device.
        return name != inUseName || inUseCard == nil || card.id == inUseCard
    }

    private mutating func choose(removed: Bool) -> [Effect] {
        var effects: [Effect] = []
        if removed, let name = inUseName {
            effects.append(.log(.notice, "output \(name) went away; pausing"))
            effects.append(.pause)
        }
        for spec in outputs where failures[spec.name] == nil {
            if spec.needsDisplay && !display { continue }
            let card = spec.match(in: cards)
            if !spec.isPlainPCM && card == nil { continue }
            let pcm = spec.pcmName(for: card)
            if spec.name == inUseName && pcm == inUsePCM && !removed { return effects }
            inUseName = spec.name
            inUsePCM = pcm
            inUseCard = card?.id
            let what = card.map { "card \($0.index) [\($0.id)] \($0.name)" } ?? "PCM \(pcm)"
            effects.append(.log(.notice, "output \(spec.name) chosen: \(what), opened as \(pcm)"))
            effects.append(.use(name: spec.name, pcm: pcm))
            return effects
        }
        inUseName = nil
        inUsePCM = ""
        inUseCard = nil
        return effects + [.noOutput(reason: noOutputReason)]
    }

    /// Why nothing plays, output by output.
    private var noOutputReason: String {
        "no sound output works: " + statuses.map { "\($0.name) \($0.state.text)" }.joined(separator: "; ")
    }

}

/// One output as `shufflebox outputs` shows it.
public struct OutputStatus: Equatable, Sendable {
    /// Whether it plays, could, or why not.
    public enum State: Equatable, Sendable {
        case inUse, ready, failed(String), notPresent, noDisplay

        /// In words, as `shufflebox outputs` prints it.
        public var text: String {
            switch self {
            case .inUse: "in use"
            case .ready: "ready"
            case .failed(let reason): "failed: \(reason)"
            case .notPresent: "not present"
            case .noDisplay: "no display attached"
            }
        }
    }

    /// The output's name.
    public var name: String
    /// The card it matched, if present.
    public var card: SoundCard?
    /// The PCM it opens (nil while no card matches).
    public var pcm: String?
    /// What it matches, in words.
    public var match: String
    /// Its state.
    public var state: State

    /// Creates a status.
    public init(name: String, card: SoundCard?, pcm: String?, match: String, state: State) {
        self.name = name
        self.card = card
        self.pcm = pcm
        self.match = match
        self.state = state
    }

    /// What it is and how it is, without the name: `USB-Audio card 1 [Device] (plughw:CARD=Device,DEV=0): in use`.
    public var summary: String {
        var what: String
        if let card {
            what = "\(card.driver) card \(card.index) [\(card.id)]"
        } else if pcm != nil {
            what = "PCM"
        } else {
            what = match
        }
        if let pcm { what += " (\(pcm))" }
        return "\(what): \(state.text)"
    }

    /// One line: `* usb       USB-Audio card 1 [Device] (plughw:CARD=Device,DEV=0): in use`.
    public var line: String {
        let mark = state == .inUse ? "* " : "  "
        let padded = name.count < 9 ? name + String(repeating: " ", count: 9 - name.count) : name
        return "\(mark)\(padded) \(summary)"
    }
}
