// shufflebox-speech: spoken phrases for the player, rendered by espeak-ng in a process of its own.
//
// The player (`PhraseVoice` in Speech) starts one for each phrase it has not said lately, with a Unix socket as
// its standard input, sends one `speak` request per segment (`WireMessage`) and ends it when the phrase is
// whole. Why apart: the text is a song's title from a stick, and espeak-ng has had memory-safety bugs on
// crafted text (CVE-2023-49990 to 49994); its data files (a dictionary per script), its synthesis buffers and
// the libraries libespeak-ng links (PulseAudio's client among them) would otherwise stay in the daemon for
// good. Here they last as long as a phrase. Not for people: started by hand it says so and exits.
import Glibc
import HelperWire
import LibEspeakNG

let channel = HelperSide.playerChannel("shufflebox-speech", purpose: "renders spoken phrases")

func failure(_ text: String) -> WireMessage { WireMessage(.failure, payload: Array(text.utf8)) }

/// Renders one `speak` request: its payload is the voices to try in turn and the text, each ended by a zero
/// byte but the last (`PhraseVoice.request`). A voice espeak-ng does not have gives way to the next one.
func speak(_ request: WireMessage, with synthesizer: SpeechSynthesizer) throws(WireError) {
    let parts = request.payload.split(separator: 0, omittingEmptySubsequences: false)
    guard parts.count >= 2, let text = parts.last else {
        return try channel.send(failure("a speak request without a voice"))
    }
    let words = String(decoding: text, as: UTF8.self)
    var samples: [Int16]?
    var lastError: EspeakError?
    for voice in parts.dropLast() {
        do throws(EspeakError) {
            samples = try synthesizer.render(words, voice: String(decoding: voice, as: UTF8.self),
                                             wordsPerMinute: Int(clamping: request.a))
            break
        } catch where error.isVoiceNotFound {
            lastError = error
        } catch {
            lastError = error
            break
        }
    }
    guard let samples else {
        return try channel.send(failure("espeak-ng cannot say it: \(lastError.map { "\($0)" } ?? "no voice")"))
    }
    // In batches of at most `maxFrames` (a reply's bound), then `done`.
    var start = 0
    while start < samples.count {
        let count = min(WireMessage.maxFrames, samples.count - start)
        try channel.sendHeader(.samples, a: Int64(count), b: 2, c: Int64(synthesizer.sampleRate), length: count * 2)
        try samples.withUnsafeBytes { all in
            Result { () throws(WireError) in
                try channel.sendBytes(UnsafeRawBufferPointer(rebasing: all[(start * 2)..<((start + count) * 2)]))
            }
        }.get()
        start += count
    }
    try channel.send(WireMessage(.done))
}

func serve() throws(WireError) {
    // espeak-ng's data, loaded before the first request is read (it is the reason this process was started).
    let synthesizer: Result<SpeechSynthesizer, EspeakError> = Result { () throws(EspeakError) in
        try SpeechSynthesizer.shared()
    }
    while let request = try channel.receive() {
        guard request.kind == .speak else {
            throw .malformed("a \(request.kind) request (this helper only speaks)")
        }
        switch synthesizer {
        case .success(let ready): try speak(request, with: ready)
        case .failure(let error):
            try channel.send(failure("espeak-ng cannot start: \(error); check that espeak-ng-data is installed"))
        }
    }
}

HelperSide.finish("shufflebox-speech", serve)
