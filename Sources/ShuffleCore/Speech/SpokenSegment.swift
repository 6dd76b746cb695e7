/// A piece of a phrase and the espeak-ng voice that says it.
public struct SpokenSegment: Equatable, Sendable, CustomStringConvertible {
    /// The text, trimmed.
    public var text: String
    /// The espeak-ng voice (language) name: `en`, `ja`, `cmn`, `ru`.
    public var voice: String

    /// Creates a segment.
    public init(_ text: String, voice: String) {
        self.text = text
        self.voice = voice
    }

    /// `ja: のカフカ`.
    public var description: String { "\(voice): \(text)" }
}
