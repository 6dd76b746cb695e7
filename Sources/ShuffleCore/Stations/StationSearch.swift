/// A station's search: free words (the FTS query of `shufflebox search`) and field filters.
public struct StationSearch: Equatable, Sendable {
    /// A field a filter looks at.
    public enum Field: String, CaseIterable, Sendable {
        case artist, album, albumartist, title, genre, folder
    }

    /// The free words, as typed (matched like `shufflebox search`).
    public var words: [String] = []
    /// The filters, in order: the field contains the text (case ignored); `folder`: the path begins with it.
    public var filters: [(field: Field, value: String)] = []

    /// Why a search could not be read.
    public struct ParseError: Error, Equatable {
        /// For a person.
        public var message: String
    }

    /// An empty search (the whole stick).
    public init() {}

    /// Whether it picks the whole stick.
    public var isEmpty: Bool { words.isEmpty && filters.isEmpty }

    /// Parses `lullaby artist:raffi folder:"Bedtime songs"`.
    public init(parsing text: String) throws(ParseError) {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        var hasToken = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                hasToken = true
            } else if !quoted && (character == " " || character == "\t") {
                if hasToken { tokens.append(current) }
                current = ""
                hasToken = false
            } else {
                current.append(character)
                hasToken = true
            }
        }
        guard !quoted else { throw ParseError(message: "a quote is not closed in '\(text.prefix(60))'") }
        if hasToken { tokens.append(current) }
        for token in tokens {
            if let colon = token.firstIndex(of: ":"), let field = Field(rawValue: token[..<colon].lowercased()) {
                let value = String(token[token.index(after: colon)...])
                guard !value.isEmpty else { throw ParseError(message: "'\(field.rawValue):' needs a value") }
                filters.append((field, value))
            } else if !token.isEmpty {
                words.append(token)
            }
        }
        guard !isEmpty else { throw ParseError(message: "'search' needs words or filters such as artist:NAME") }
    }

    /// Compares words and filters.
    public static func == (lhs: StationSearch, rhs: StationSearch) -> Bool {
        lhs.words == rhs.words && lhs.filters.elementsEqual(rhs.filters) { $0.field == $1.field && $0.value == $1.value }
    }
}
