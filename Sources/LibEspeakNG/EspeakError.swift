internal import CEspeakNG

/// A libespeak-ng call that failed: the function, its status code and espeak-ng's own message for it.
public struct EspeakError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `espeak_ng_STATUS` value (0-255 are errno values).
    public var code: UInt32
    /// The C function that returned it.
    public var function: String
    /// What was asked (the voice name, the data path).
    public var context: String

    /// Creates an error.
    public init(code: UInt32, function: String, context: String = "") {
        self.code = code
        self.function = function
        self.context = context
    }

    /// Whether espeak-ng has no voice of that name.
    public var isVoiceNotFound: Bool { code == ENS_VOICE_NOT_FOUND.rawValue }

    /// "espeak_ng_SetVoiceByName (xx): Voice not found". Wraps `espeak_ng_GetStatusCodeMessage`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(espeak_ng_STATUS(rawValue: code), &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(function)\(context.isEmpty ? "" : " (\(context))"): \(message)"
    }
}

/// Throws unless `status` is `ENS_OK`.
func check(_ status: espeak_ng_STATUS, _ function: String, _ context: String = "") throws(EspeakError) {
    guard status == ENS_OK else { throw EspeakError(code: status.rawValue, function: function, context: context) }
}
