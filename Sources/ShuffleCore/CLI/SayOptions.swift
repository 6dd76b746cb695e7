/// Options of `shufflebox say TEXT [--device PCM] [--voice LANG] [--volume V]`.
public struct SayOptions: Equatable, Sendable {
    /// The words.
    public var text: String
    /// The ALSA PCM name.
    public var device: String
    /// The espeak-ng language for Latin script (other scripts choose their own voice).
    public var voice: String
    /// The level in steps of 20 (full scale at 20).
    public var volume: Int

    /// Creates the options.
    public init(text: String, device: String = "default", voice: String = VoiceChoice.defaultLanguage, volume: Int = 14) {
        self.text = text
        self.device = device
        self.voice = voice
        self.volume = volume
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> SayOptions {
        var scanner = try ArgumentScanner(arguments, command: "say", valued: ["device", "voice", "volume"])
        let device = scanner.value("device") ?? "default"
        let voice = scanner.value("voice") ?? VoiceChoice.defaultLanguage
        let volume = try scanner.integer("volume", in: 0...20) ?? 14
        let words = scanner.takePositionals()
        try scanner.finish()
        guard !words.isEmpty else { throw UsageError("say needs the words to say", command: "say") }
        return SayOptions(text: words.joined(separator: " "), device: device, voice: voice, volume: volume)
    }
}
