import ShuffleCore
import Testing

/// The voice for the words: espeak-ng's voice chosen from the script of each part of a phrase.
@Suite struct VoiceChoiceTests {
    @Test(arguments: [
        ("Halo", "en", [SpokenSegment("Halo", voice: "en")]),
        ("Halo", "de", [SpokenSegment("Halo", voice: "de")]),
        ("カフカ", "en", [SpokenSegment("カフカ", voice: "ja")]),
        ("ひらがな", "en", [SpokenSegment("ひらがな", voice: "ja")]),
        ("ﾊﾟｲﾅｯﾌﾟﾙ", "en", [SpokenSegment("ﾊﾟｲﾅｯﾌﾟﾙ", voice: "ja")]),
        ("안녕하세요", "en", [SpokenSegment("안녕하세요", voice: "ko")]),
        ("村上", "en", [SpokenSegment("村上", voice: "cmn")]),
        ("Привет", "en", [SpokenSegment("Привет", voice: "ru")]),
        ("Червона рута, їй", "en", [SpokenSegment("Червона рута, їй", voice: "uk")]),
        ("Ђорђе", "en", [SpokenSegment("Ђорђе", voice: "sr")]),
        ("Καλημέρα", "en", [SpokenSegment("Καλημέρα", voice: "el")]),
        ("مرحبا", "en", [SpokenSegment("مرحبا", voice: "ar")]),
        ("گل پری", "en", [SpokenSegment("گل پری", voice: "fa")]),
        ("שלום", "en", [SpokenSegment("שלום", voice: "he")]),
        ("नमस्ते", "en", [SpokenSegment("नमस्ते", voice: "hi")]),
        ("வணக்கம்", "en", [SpokenSegment("வணக்கம்", voice: "ta")]),
        ("สวัสดี", "en", [SpokenSegment("สวัสดี", voice: "th")]),
        ("Բարեւ", "en", [SpokenSegment("Բարեւ", voice: "hy")]),
        ("გამარჯობა", "en", [SpokenSegment("გამარჯობა", voice: "ka")]),
        ("Beyoncé Ça Ünlü", "en", [SpokenSegment("Beyoncé Ça Ünlü", voice: "en")]),
    ])
    func eachScriptHasItsVoice(_ text: String, _ latin: String, _ expected: [SpokenSegment]) {
        #expect(VoiceChoice.segments(text, latin: latin) == expected)
    }

    @Test func kanaAndHanInOneTitleAreSpokenEachInItsVoice() {
        // espeak-ng's Japanese voice has no kanji readings (it says "Chinese letter"): Han stays Mandarin.
        #expect(
            VoiceChoice.segments("海辺のカフカ")
                == [SpokenSegment("海辺", voice: "cmn"), SpokenSegment("のカフカ", voice: "ja")])
    }

    @Test func spacesDigitsAndPunctuationStayWithTheirNeighbours() {
        #expect(VoiceChoice.segments("1Q84") == [SpokenSegment("1Q84", voice: "en")])
        #expect(VoiceChoice.segments("  「東京」 2020!  ") == [SpokenSegment("「東京」 2020!", voice: "cmn")])
        #expect(
            VoiceChoice.segments("Live in Москва 1999")
                == [SpokenSegment("Live in", voice: "en"), SpokenSegment("Москва 1999", voice: "ru")])
        #expect(VoiceChoice.segments("   ") == [])
        #expect(VoiceChoice.segments("!!! 🎵") == [SpokenSegment("!!! 🎵", voice: "en")])
    }

    @Test func titleAndArtistInDifferentScriptsAreSegmentsWithTheirOwnVoices() {
        #expect(
            VoiceChoice.nowPlaying(title: "海辺のカフカ", artist: "村上", fileName: "x.mp3") == [
                SpokenSegment("海辺", voice: "cmn"), SpokenSegment("のカフカ,", voice: "ja"),
                SpokenSegment("by", voice: "en"), SpokenSegment("村上", voice: "cmn"),
            ])
        #expect(
            VoiceChoice.nowPlaying(title: "Кино", artist: "Виктор Цой", fileName: "x.mp3") == [
                SpokenSegment("Кино,", voice: "ru"), SpokenSegment("by", voice: "en"),
                SpokenSegment("Виктор Цой", voice: "ru"),
            ])
        #expect(
            VoiceChoice.nowPlaying(title: "Halo", artist: "Beyoncé", fileName: "x.mp3")
                == [SpokenSegment("Halo, by Beyoncé", voice: "en")])
        #expect(
            VoiceChoice.nowPlaying(title: "Halo", artist: "Beyoncé", fileName: "x.mp3", latin: "de", by: "von")
                == [SpokenSegment("Halo, von Beyoncé", voice: "de")])
    }

    @Test func withoutTagsTheFileNameIsSaid() {
        #expect(
            VoiceChoice.nowPlaying(title: nil, artist: nil, fileName: "Music/Track 07.mp3")
                == [SpokenSegment("Track 07", voice: "en")])
        #expect(
            VoiceChoice.nowPlaying(title: " ", artist: "", fileName: "夜に駆ける.flac")
                == [
                    SpokenSegment("夜", voice: "cmn"), SpokenSegment("に", voice: "ja"),
                    SpokenSegment("駆", voice: "cmn"), SpokenSegment("ける", voice: "ja"),
                ])
        #expect(
            VoiceChoice.nowPlaying(title: nil, artist: nil, fileName: ".hidden") == [
                SpokenSegment(".hidden", voice: "en")
            ])
    }
}
