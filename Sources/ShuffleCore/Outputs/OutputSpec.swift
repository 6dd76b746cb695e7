/// One output of the box's list (`output = NAME WORDS...` in shufflebox.conf): what sound device it is,
/// recognised by what the card says of itself (its ALSA id or driver), never by its number, which changes
/// with the order the kernel happens to find cards in.
public struct OutputSpec: Equatable, Sendable {
    /// The output's name, as `shufflebox outputs`, `status` and MPD clients show it (`amp`, `usb`, `jack`).
    public var name: String
    /// ALSA card ids it matches (`MAX98357A`, `Headphones`, `vc4hdmi*`); `*` and `?` are globs.
    public var cards: [String] = []
    /// Card drivers it matches (`USB-Audio`), globs likewise.
    public var drivers: [String] = []
    /// The ALSA PCM to open; `{card}` stands for the matched card's id. Nil: `plughw:CARD={card},DEV=0`.
    public var pcm: String?
    /// Usable only while a display is attached (HDMI audio refuses to start without one).
    public var needsDisplay = false

    /// The PCM opened for a matched card when the line names none: the card's first device, with alsa-lib
    /// converting rate and format (`plug`), so any file plays on any card.
    public static let defaultPCM = "plughw:CARD={card},DEV=0"

    /// Creates an output.
    public init(
        name: String, cards: [String] = [], drivers: [String] = [], pcm: String? = nil, needsDisplay: Bool = false
    ) {
        self.name = name
        self.cards = cards
        self.drivers = drivers
        self.pcm = pcm
        self.needsDisplay = needsDisplay
    }

    /// Whether it names no card: a PCM by name (`pcm default`), which is always there to try.
    public var isPlainPCM: Bool { cards.isEmpty && drivers.isEmpty }

    /// The first of `cards` this output matches (the lowest number), if any.
    public func match(in present: [SoundCard]) -> SoundCard? {
        guard !isPlainPCM else { return nil }
        return present.sorted { $0.index < $1.index }.first { card in
            cards.contains { Glob.matches($0, card.id) } || drivers.contains { Glob.matches($0, card.driver) }
        }
    }

    /// The PCM name to open for `card` (or for a plain PCM output, its own name).
    public func pcmName(for card: SoundCard?) -> String {
        let template = pcm ?? Self.defaultPCM
        guard let card else { return template }
        return template.replacing("{card}", with: card.id)
    }

    /// What it matches, in words: "card MAX98357A or PCM5102A", "driver USB-Audio", "PCM default".
    public var matchDescription: String {
        var parts: [String] = []
        if !cards.isEmpty { parts.append("card " + cards.joined(separator: " or ")) }
        if !drivers.isEmpty { parts.append("driver " + drivers.joined(separator: " or ")) }
        if parts.isEmpty { return "PCM \(pcm ?? "default")" }
        return parts.joined(separator: " or ")
    }

    /// Parses the value of an `output` line: `NAME [card ID]... [driver NAME]... [pcm PCM] [display]`.
    /// Returns the sentence to show when the line is wrong.
    public static func parse(_ value: String) -> Result<OutputSpec, OutputLineError> {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else {
            return .failure(
                OutputLineError("'output' needs a name and what to match, e.g. 'output = usb driver USB-Audio'"))
        }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), name.count <= 32 else {
            return .failure(
                OutputLineError("an output's name is one word of letters, digits, '-' or '_', not '\(name)'"))
        }
        var spec = OutputSpec(name: name)
        var index = 1
        while index < words.count {
            let word = words[index]
            switch word {
            case "display":
                spec.needsDisplay = true
                index += 1
                continue
            case "card", "driver", "pcm":
                guard index + 1 < words.count else {
                    return .failure(OutputLineError("output '\(name)': '\(word)' needs a value after it"))
                }
                let argument = words[index + 1]
                if word == "card" { spec.cards.append(argument) }
                if word == "driver" { spec.drivers.append(argument) }
                if word == "pcm" {
                    guard spec.pcm == nil else {
                        return .failure(OutputLineError("output '\(name)': 'pcm' is given twice"))
                    }
                    spec.pcm = argument
                }
                index += 2
            default:
                return .failure(
                    OutputLineError(
                        "output '\(name)': unknown word '\(word)' (expected card ID, driver NAME, pcm PCM or display)"))
            }
        }
        if spec.isPlainPCM && spec.pcm == nil {
            return .failure(
                OutputLineError("output '\(name)' matches nothing: give 'card ID', 'driver NAME' or 'pcm PCM'"))
        }
        if spec.isPlainPCM, let pcm = spec.pcm, pcm.contains("{card}") {
            return .failure(
                OutputLineError("output '\(name)': '{card}' in its PCM needs a 'card' or 'driver' to match"))
        }
        return .success(spec)
    }
}

/// Why an `output` line was refused, as a sentence.
public struct OutputLineError: Error, Equatable, Sendable {
    /// The sentence.
    public var message: String
    /// Creates one.
    public init(_ message: String) { self.message = message }
}

/// Shell-style globs over card ids and drivers: `*` any run, `?` any one character, the rest literal.
public enum Glob {
    /// Whether `pattern` matches the whole of `text`.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1
                ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
