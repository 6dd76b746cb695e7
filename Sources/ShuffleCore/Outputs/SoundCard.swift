/// A sound card the kernel has, as `/proc/asound/cards` lists it.
public struct SoundCard: Equatable, Sendable {
    /// Its number (the N of `hw:N`), which changes with the order cards were found: shown, never matched.
    public var index: Int
    /// Its ALSA id (`Headphones`, `MAX98357A`, `Device`): what `CARD=` names.
    public var id: String
    /// Its driver (`USB-Audio`, `bcm2835_headpho`, `Loopback`).
    public var driver: String
    /// Its short name (`bcm2835 Headphones`, `USB Audio Device`).
    public var name: String

    /// Creates a card.
    public init(index: Int, id: String, driver: String, name: String) {
        self.index = index
        self.id = id
        self.driver = driver
        self.name = name
    }

    /// Parses `/proc/asound/cards`: a line ` N [ID             ]: DRIVER - SHORT NAME` per card, each followed
    /// by an indented line with its long name. Lines of any other shape are passed over.
    public static func parse(procCards text: String) -> [SoundCard] {
        var cards: [SoundCard] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " })
            guard let open = trimmed.firstIndex(of: "["), let index = Int(trimmed[..<open].filter { $0 != " " }),
                let close = trimmed[open...].firstIndex(of: "]")
            else { continue }
            let id = String(trimmed[trimmed.index(after: open)..<close].filter { $0 != " " })
            var rest = trimmed[trimmed.index(after: close)...]
            guard rest.first == ":" else { continue }
            rest = rest.dropFirst().drop(while: { $0 == " " })
            let driver: Substring, name: Substring
            if let dash = rest.firstRange(of: " - ") {
                driver = rest[..<dash.lowerBound]
                name = rest[dash.upperBound...]
            } else {
                driver = rest
                name = rest
            }
            guard !id.isEmpty else { continue }
            cards.append(SoundCard(index: index, id: id, driver: String(driver), name: String(name)))
        }
        return cards
    }
}
