/// `albumart URI OFFSET` and `readpicture URI OFFSET`: a song's cover, in chunks of at most the client's
/// `binarylimit`. `albumart` is the picture file in the song's folder (`cover.jpg`, `folder.jpg`, ...);
/// `readpicture` the picture the song's own tags carry. Both read the stick, so the server answers them
/// later, off its loop, like an index search (`MPDBackend.picture`).
extension MPDCommands {
    static let pictureCommands = ["albumart", "readpicture"]

    /// The picture `request` asks for, or nil when it is another command.
    static func pictureRequest(_ request: MPDRequest, _ options: MPDClientOptions) throws(MPDError) -> PendingPicture? {
        let kind: PendingPicture.Kind
        switch request.name {
        case "albumart": kind = .folder
        case "readpicture": kind = .embedded
        default: return nil
        }
        try count(request, 2...2)
        guard let offset = Int(request.arguments[1]), offset >= 0 else {
            throw MPDError(.argument, "Number expected: \(request.arguments[1])")
        }
        return PendingPicture(kind: kind, uri: request.arguments[0], offset: offset, limit: options.binaryLimit)
    }
}

/// An `albumart` or `readpicture` request, answered once the stick has been read.
public struct PendingPicture: Equatable, Sendable {
    /// Where the picture comes from.
    public enum Kind: Sendable {
        /// A picture file beside the song (`albumart`).
        case folder
        /// The song's embedded picture (`readpicture`).
        case embedded
    }

    /// `albumart` or `readpicture`.
    public let kind: Kind
    /// The song (or, for `albumart`, a folder of the library).
    public let uri: String
    /// The first byte of the picture wanted.
    public let offset: Int
    /// The most bytes to send (`binarylimit`).
    public let limit: Int

    /// Creates a request.
    public init(kind: Kind, uri: String, offset: Int, limit: Int) {
        self.kind = kind
        self.uri = uri
        self.offset = offset
        self.limit = limit
    }

    /// The command's name.
    public var command: String { kind == .folder ? "albumart" : "readpicture" }

    /// The reply: `size`, `type` (when known, `readpicture` only, as MPD), `binary`, the bytes, a newline and
    /// `OK`; for no picture, `OK` alone (`readpicture`) or an ACK (`albumart`, as MPD: "No file exists").
    public func answer(_ result: Result<PictureChunk?, MPDError>) -> [UInt8] {
        switch result {
        case .failure(let error):
            return Array(error.ackLine(listIndex: 0, command: command).utf8)
        case .success(nil):
            if kind == .embedded { return Array("OK\n".utf8) }
            return Array(MPDError(.noExist, "No file exists").ackLine(listIndex: 0, command: command).utf8)
        case .success(let chunk?):
            var head = "size: \(chunk.size)\n"
            if kind == .embedded, let type = chunk.mimeType { head += "type: \(type)\n" }
            head += "binary: \(chunk.bytes.count)\n"
            return Array(head.utf8) + chunk.bytes + Array("\nOK\n".utf8)
        }
    }
}

/// Part of a picture: its whole size, its MIME type when known, and the bytes asked for.
public struct PictureChunk: Equatable, Sendable {
    /// The picture's size in bytes.
    public var size: Int
    /// `image/jpeg`, `image/png`, ...
    public var mimeType: String?
    /// The bytes from the asked offset, at most the client's limit.
    public var bytes: [UInt8]

    /// Creates a chunk.
    public init(size: Int, mimeType: String?, bytes: [UInt8]) {
        self.size = size
        self.mimeType = mimeType
        self.bytes = bytes
    }
}
