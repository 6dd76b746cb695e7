import Dispatch
import LibPThread
import MediaProbe
import ShuffleCore

/// Reads covers for `albumart` and `readpicture` from the stick, on a thread of its own: a slow or pulled
/// stick holds a client's picture, never the loop. A client asks for a picture chunk after chunk (8 KiB
/// each unless it raised `binarylimit`), so the last embedded picture found is remembered by its file:
/// the tag is walked once per picture, not once per chunk.
final class PictureReader: Sendable {
    private let queue = DispatchQueue(label: "shufflebox.pictures")
    private let last = PThreadMutex<(path: PathBytes, picture: EmbeddedPicture?)?>(nil)

    /// Answers `request` for the library at `root` holding `songs`; `done` is called on the pictures' thread.
    func read(
        _ request: PendingPicture, root: String, songs: SongList,
        done: @escaping @Sendable (Result<PictureChunk?, MPDError>) -> Void
    ) {
        queue.async { [self] in done(answer(request, root: root, songs: songs)) }
    }

    private func answer(_ request: PendingPicture, root: String, songs: SongList) -> Result<PictureChunk?, MPDError> {
        let uri = request.uri.hasSuffix("/") ? String(request.uri.dropLast()) : request.uri
        // Only what the listing holds is read: a URI is never a way out of the stick's music.
        // Bytes are compared, not Strings (which would take a decomposed name for a composed one, and then
        // miss the file): a client sends back the path it was given.
        let isSong = songs.containsPath(uri)
        let rootPath = PathBytes(Array(root.utf8))
        switch request.kind {
        case .embedded:
            guard isSong else { return .failure(MPDError(.noExist, "No such song")) }
            let path = rootPath.appending(PathBytes(Array(uri.utf8)))
            let picture = embedded(path)
            guard let picture else { return .success(nil) }
            return chunk(request, size: picture.count, mimeType: picture.mimeType) { offset, count in
                picture.chunk(of: path, from: offset, count: count)
            }
        case .folder:
            let folder: String
            if isSong {
                folder = uri.lastIndex(of: "/").map { String(uri[..<$0]) } ?? ""
            } else if uri.isEmpty || songs.containsPath(uri, asFolder: true) {
                folder = uri
            } else {
                return .failure(MPDError(.noExist, "No such song or folder"))
            }
            let folderPath = folder.isEmpty ? rootPath : rootPath.appending(PathBytes(Array(folder.utf8)))
            guard let cover = FolderCover.find(in: folderPath) else { return .success(nil) }
            return chunk(request, size: cover.size, mimeType: nil) { offset, count in
                FolderCover.chunk(of: cover.path, from: offset, count: count)
            }
        }
    }

    /// The embedded picture of the file at `path`, from the last one found when it is the same file.
    private func embedded(_ path: PathBytes) -> EmbeddedPicture? {
        if let known = last.withLock({ $0 }), known.path == path { return known.picture }
        let picture = EmbeddedPicture.find(path: path)
        last.withLock { $0 = (path, picture) }
        return picture
    }

    /// The chunk `request` asks for of a picture of `size` bytes, read by `read(offset, count)`.
    private func chunk(
        _ request: PendingPicture, size: Int, mimeType: String?, read: (Int, Int) -> [UInt8]?
    ) -> Result<PictureChunk?, MPDError> {
        guard request.offset <= size else {
            return .failure(MPDError(.argument, "Bad file offset: the picture has \(size) bytes"))
        }
        let count = min(request.limit, size - request.offset)
        guard let bytes = read(request.offset, count), bytes.count == count else {
            // The file changed or the stick went: forget what was found, and say what happened.
            last.withLock { $0 = nil }
            return .failure(MPDError(.system, "cannot read the picture of \(request.uri) from the stick"))
        }
        // The last chunk sent: a picture held in memory (undone from a tag) is let go.
        if request.offset + count == size { last.withLock { $0 = nil } }
        return .success(PictureChunk(size: size, mimeType: mimeType, bytes: bytes))
    }
}
