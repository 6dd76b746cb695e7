/// Which espeak-ng voice speaks which part of a phrase, chosen from the text itself: each run of one
/// script gets the voice of that script, Latin script the configured language. Pure.
///
/// | script | voice |
/// |---|---|
/// | Hiragana, Katakana | `ja` |
/// | Hangul | `ko` |
/// | Han (CJK ideographs) | `cmn` (espeak-ng's `ja` has no readings for kanji, so they stay Mandarin) |
/// | Cyrillic | `ru`; `uk` with і ї є ґ; `sr` with ђ ј љ њ ћ џ |
/// | Greek | `el` |
/// | Arabic | `ar`; `fa` with پ چ ژ گ ی |
/// | Hebrew | `he` |
/// | Devanagari | `hi` |
/// | Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala | `bn` `pa` `gu` `or` `ta` `te` `kn` `ml` `si` |
/// | Thai, Myanmar, Armenian, Georgian, Ethiopic | `th` `my` `hy` `ka` `am` |
/// | Latin, and anything else | the configured language (default `en`) |
///
/// Spaces, digits, punctuation and symbols belong to no script: they stay with the run before them (or
/// the one after, at the start), so "1Q84" or "Live!" never becomes a segment of its own.
public enum VoiceChoice {
    /// The voice for Latin script when none is configured.
    public static let defaultLanguage = "en"

    /// The segments of `text`, each with its voice; `latin` speaks Latin script (and unknown scripts).
    public static func segments(_ text: String, latin: String = defaultLanguage) -> [SpokenSegment] {
        var runs: [(script: Script?, text: String)] = []
        for character in text {
            let script = Script(character)
            if let last = runs.indices.last, script == nil || runs[last].script == script || runs[last].script == nil {
                runs[last].text.append(character)
                if runs[last].script == nil { runs[last].script = script }
            } else {
                runs.append((script, String(character)))
            }
        }
        var segments: [SpokenSegment] = []
        for run in runs {
            let trimmed = run.text.trimmingSpaces()
            guard !trimmed.isEmpty else { continue }
            let voice = run.script.map { $0.voice(for: trimmed) } ?? latin
            let chosen = voice.isEmpty ? latin : voice
            if let last = segments.indices.last, segments[last].voice == chosen {
                segments[last].text += " " + trimmed
            } else {
                segments.append(SpokenSegment(trimmed, voice: chosen))
            }
        }
        return segments
    }

    /// "Title, by Artist": each part in its own voice, the joining word (`by`, or the configured
    /// language's) in `latin`'s. Without a title the file name (without its extension) is said; without an
    /// artist only the title.
    public static func nowPlaying(
        title: String?, artist: String?, fileName: String, latin: String = defaultLanguage, by joiner: String = "by"
    ) -> [SpokenSegment] {
        let name = title.flatMap { $0.trimmingSpaces().isEmpty ? nil : $0 } ?? withoutExtension(fileName)
        var phrase = segments(name, latin: latin)
        if let artist, !artist.trimmingSpaces().isEmpty {
            if let last = phrase.indices.last { phrase[last].text += "," }
            phrase += [SpokenSegment(joiner, voice: latin)] + segments(artist, latin: latin)
        }
        // Neighbours in one voice read as one phrase.
        var merged: [SpokenSegment] = []
        for segment in phrase {
            if let last = merged.indices.last, merged[last].voice == segment.voice {
                merged[last].text += " " + segment.text
            } else {
                merged.append(segment)
            }
        }
        return merged
    }

    static func withoutExtension(_ fileName: String) -> String {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        let ext = base[base.index(after: dot)...]
        return ext.count <= 5 && !ext.contains(" ") ? String(base[..<dot]) : base
    }
}

/// A script, as far as choosing a voice needs: found from a character's first scalar.
enum Script: Equatable {
    case latin, kana, hangul, han, cyrillic, greek, arabic, hebrew
    /// Scripts with one espeak-ng voice each, by that voice's name.
    case single(String)

    /// The script of `character`, or nil for spaces, digits, punctuation and symbols.
    init?(_ character: Character) {
        guard let scalar = character.unicodeScalars.first else { return nil }
        let value = scalar.value
        switch value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A,
            0xFF41...0xFF5A:
            self = .latin
        case 0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .kana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: self = .hangul
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: self = .han
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: self = .cyrillic
        case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
            // Arabic digits and punctuation are no script, like ASCII ones.
            if (0x660...0x669).contains(value) || (0x6F0...0x6F9).contains(value) || value == 0x60C || value == 0x61F {
                return nil
            }
            self = .arabic
        case 0x591...0x5FF, 0xFB1D...0xFB4F: self = .hebrew
        default:
            guard let voice = Self.singles.first(where: { $0.range.contains(value) })?.voice else { return nil }
            self = .single(voice)
        }
    }

    /// Blocks whose script one voice speaks.
    static let singles: [(range: ClosedRange<UInt32>, voice: String)] = [
        (0x900...0x97F, "hi"), (0x980...0x9FF, "bn"), (0xA00...0xA7F, "pa"), (0xA80...0xAFF, "gu"),
        (0xB00...0xB7F, "or"), (0xB80...0xBFF, "ta"), (0xC00...0xC7F, "te"), (0xC80...0xCFF, "kn"),
        (0xD00...0xD7F, "ml"), (0xD80...0xDFF, "si"), (0xE00...0xE7F, "th"), (0x1000...0x109F, "my"),
        (0x531...0x58F, "hy"), (0x10A0...0x10FF, "ka"), (0x1200...0x139F, "am"),
    ]

    /// The voice for a run of this script (`text` tells Ukrainian, Serbian and Persian apart); "" for Latin.
    func voice(for text: String) -> String {
        switch self {
        case .latin: return ""
        case .kana: return "ja"
        case .hangul: return "ko"
        case .han: return "cmn"
        case .cyrillic:
            if text.contains(where: { "іїєґІЇЄҐ".contains($0) }) { return "uk" }
            if text.contains(where: { "ђјљњћџЂЈЉЊЋЏ".contains($0) }) { return "sr" }
            return "ru"
        case .greek: return "el"
        case .arabic: return text.contains(where: { "پچژگی".contains($0) }) ? "fa" : "ar"
        case .hebrew: return "he"
        case .single(let voice): return voice
        }
    }
}
