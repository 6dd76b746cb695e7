import MusicLibrary
import Testing

/// The pure MATCH-expression builder, by table.
@Suite struct SearchQueryTests {
    @Test(arguments: [
        ("beyonce", "\"beyonce\"*"),
        ("Beyoncé halo", "\"Beyoncé\" \"halo\"*"),
        ("  spaced   out  ", "\"spaced\" \"out\"*"),
        ("say \"hi\"", "\"say\" \"\"\"hi\"\"\"*"),
        ("AND OR NOT", "\"AND\" \"OR\" \"NOT\"*"),
        ("NEAR(a b", "\"NEAR(a\" \"b\"*"),
        ("-rock ^pop col:x", "\"-rock\" \"^pop\" \"col:x\"*"),
        ("a* - ( ) *", "\"a*\"*"),
        ("東京", "\"東 京\"*"),
        ("京", "\"京\"*"),
        ("東京事変 live", "\"東 京 事 変\" \"live\"*"),
        ("ひかりtoday", "\"ひ か り today\"*"),
        ("별빛", "\"별 빛\"*"),
    ])
    func buildsQuotedTermsWithAPrefixOnTheLast(_ input: String, _ expected: String) {
        #expect(SearchQuery.matchExpression(for: input) == expected)
    }

    @Test(arguments: ["", "   ", "\"", "\"\"", "*", "-", "( )", "^ * - \" ( )", "\t\n"])
    func queriesWithoutWordsMatchNothing(_ input: String) {
        #expect(SearchQuery.matchExpression(for: input) == nil)
    }

    @Test func indexFormSpacesOutCJKOnly() {
        #expect(FTSText.indexForm("Beyoncé") == "Beyoncé")
        #expect(FTSText.indexForm("青い海 ルミナス") == " 青  い  海   ル  ミ  ナ  ス ")
        #expect(FTSText.indexForm("Tokyo東京") == "Tokyo 東  京 ")
    }
}

extension SearchQueryTests {
    @Test func controlCharactersSeparateWords() {
        #expect(SearchQuery.matchExpression(for: "a\u{0}b") == "\"a\" \"b\"*")
        #expect(SearchQuery.matchExpression(for: "\u{7F}x\u{1B}") == "\"x\"*")
    }
}
