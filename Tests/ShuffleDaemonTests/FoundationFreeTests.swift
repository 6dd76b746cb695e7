import Foundation
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The daemon's replacements for what full Foundation gave it (search folding, trimming, zero padding;
/// LibTests' FileSystemTests has the file calls), and the check that the shipped executable no longer links it.
@Suite struct FoundationFreeTests {
    @Test(arguments: [
        ("Beyoncé", "beyonce"),  // composed é
        ("Beyonce\u{301}", "BEYONCE"),  // decomposed e + combining acute
        ("beyonce", "Beyoncé"),  // the accent on the query side
        ("Sigur Rós", "ros"),
        ("Motörhead", "MOTORHEAD"),
        ("Tiếng Việt", "tieng viet"),  // two marks on one letter
        ("Ἀθῆναι", "αθηναι"),  // Greek with breathing and circumflex
        ("Ελλάδα", "ελλαδα"),  // Greek tonos
        ("Crème Brûlée", "eme bru"),
    ])
    func searchFindsAcrossCaseAndDiacritics(_ field: String, _ query: String) {
        #expect(SearchText.contains(field, query))
    }

    @Test(arguments: [("Beyoncé", "beyoncee"), ("Abba", "abc"), ("Abba", ""), ("", "a"), ("Ab", "abba")])
    func searchRejectsWhatIsNotThere(_ field: String, _ query: String) {
        #expect(!SearchText.contains(field, query))
    }

    @Test func foldingKeepsLettersWithoutABase() {
        #expect(SearchText.fold("ÆØ日本") == Array("æø日本".unicodeScalars).map { SearchText.baseLetter(of: $0) ?? $0 })
        #expect(SearchText.baseLetter(of: "日") == nil)
        #expect(SearchText.baseLetter(of: "a") == nil)
        #expect(SearchText.baseLetter(of: "ñ") == "n")
    }

    @Test func trimmingDropsSpacesAndTabsOnly() {
        #expect(SearchText.trimmed("  \t a b \u{00A0}") == "a b")
        #expect(SearchText.trimmed(" \t ") == "")
        #expect(SearchText.trimmed("x") == "x")
        #expect(SearchText.trimmed("\nx\n") == "\nx\n")
    }

    @Test func secondsAreZeroPadded() {
        #expect(StatusCommand.twoDigits(0) == "00")
        #expect(StatusCommand.twoDigits(7) == "07")
        #expect(StatusCommand.twoDigits(59) == "59")
    }

    /// The executable's dynamic section names no Foundation library: full Foundation and ICU cost ~8 MiB
    /// of resident memory on the board, and FoundationEssentials, linked statically, was the largest part
    /// of the binary for a dozen file and environment calls (LibLinux's `FileSystem` does them now).
    @Test func shippedExecutableDoesNotLinkFoundation() throws {
        let binary = try Data(contentsOf: PackagePaths.shufflebox)
        for library in [
            "libFoundation.so", "lib_FoundationICU.so", "libFoundationInternationalization.so",
            "libFoundationEssentials.so",
        ] {
            #expect(binary.range(of: Data((library + "\0").utf8)) == nil, "\(library) is linked")
        }
        #expect(binary.range(of: Data("libasound.so.2\0".utf8)) != nil, "the check reads the dynamic section")
    }
}
