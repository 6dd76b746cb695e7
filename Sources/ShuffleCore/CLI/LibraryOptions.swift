/// Options of `shufflebox index DIR [--db FILE]`.
public struct IndexOptions: Equatable, Sendable {
    /// The folder to index.
    public var root: String
    /// The database file; nil means the state directory's `library.db`.
    public var database: String?
    /// Also measure the loudness of every track without a gain tag, before returning (what the player
    /// otherwise does in the background while it plays).
    public var measureLoudness: Bool

    /// Creates the options.
    public init(root: String, database: String? = nil, measureLoudness: Bool = false) {
        self.root = root
        self.database = database
        self.measureLoudness = measureLoudness
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> IndexOptions {
        var scanner = try ArgumentScanner(arguments, command: "index", valued: ["db"])
        let database = scanner.value("db")
        let measure = try scanner.flag("measure-loudness")
        let positionals = scanner.takePositionals()
        guard positionals.count == 1 else {
            throw UsageError("'index' needs exactly one folder", command: "index")
        }
        try scanner.finish()
        return IndexOptions(root: positionals[0], database: database, measureLoudness: measure)
    }
}

/// Options of `shufflebox search QUERY [--db FILE] [--limit N] [--json]`.
public struct SearchOptions: Equatable, Sendable {
    /// What the user typed; several words are joined with spaces.
    public var query: String
    /// The database file; nil means the state directory's `library.db`.
    public var database: String?
    /// The most results to print.
    public var limit: Int
    /// One JSON object per line instead of text.
    public var json: Bool

    /// Creates the options.
    public init(query: String, database: String? = nil, limit: Int = 20, json: Bool = false) {
        self.query = query
        self.database = database
        self.limit = limit
        self.json = json
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> SearchOptions {
        var scanner = try ArgumentScanner(arguments, command: "search", valued: ["db", "limit"])
        let database = scanner.value("db")
        let limit = try scanner.integer("limit", in: 1...1_000_000) ?? 20
        let json = try scanner.flag("json")
        let words = scanner.takePositionals()
        try scanner.finish()
        return SearchOptions(query: words.joined(separator: " "), database: database, limit: limit, json: json)
    }
}

/// Options of `shufflebox list [--db FILE] [--json]`.
public struct ListOptions: Equatable, Sendable {
    /// The database file; nil means the state directory's `library.db`.
    public var database: String?
    /// One JSON object per line instead of text.
    public var json: Bool

    /// Creates the options.
    public init(database: String? = nil, json: Bool = false) {
        self.database = database
        self.json = json
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> ListOptions {
        var scanner = try ArgumentScanner(arguments, command: "list", valued: ["db"])
        let options = ListOptions(database: scanner.value("db"), json: try scanner.flag("json"))
        try scanner.finish()
        return options
    }
}
