import Dispatch
import LibPThread
import MediaProbe
import ShuffleCore

/// Reads covers for `albumart` and `readpicture` from the stick, on a thread of its own: a slow or pulled
/// stick holds a client's picture, never the loop. A client asks for a picture chunk after chunk (8 KiB
/// each unless it raised `binarylimit`), so what the last request found is remembered by the file or folder
/// it looked in: a tag is walked, and a folder listed, once per picture, not once per chunk.
final class PictureReader: Sendable {
    /// What a request found: a song's embedded picture, or a cover file's path and size.
    private enum Found: Sendable {
        case embedded(EmbeddedPicture?)
        case file((path: PathBytes, size: Int)?)
    }

    private let queue = DispatchQueue(label: "shufflebox.pictures")
    /// The song (embedded) or folder (cover file) looked in last, and what was found there.
    private let last = PThreadMutex<(place: PathBytes, kind: PendingPicture.Kind, found: Found)?>(nil)

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
        // (MPD 0.23.5 answers a missing song with its folder's cover; only what is listed is read here.)
        // Bytes are compared, not Strings (which would take a decomposed name for a composed one, and then
        // miss the file): a client sends back the path it was given.
        let isSong = songs.containsPath(uri)
        let rootPath = PathBytes(Array(root.utf8))
        switch request.kind {
        case .embedded:
            guard isSong else { return .failure(MPDError(.noExist, "No such song")) }
            let path = rootPath.appending(PathBytes(Array(uri.utf8)))
            guard
                case .embedded(let found) = remembered(path, .embedded, { .embedded(EmbeddedPicture.find(path: path)) }),
                let picture = found
            else { return .success(nil) }
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
            guard case .file(let found) = remembered(folderPath, .folder, { .file(FolderCover.find(in: folderPath)) }),
                let cover = found
            else { return .success(nil) }
            return chunk(request, size: cover.size, mimeType: nil) { offset, count in
                FolderCover.chunk(of: cover.path, from: offset, count: count)
            }
        }
    }

    /// What `find` finds at `place` for `kind`, from the last request when it looked in the same place.
    private func remembered(_ place: PathBytes, _ kind: PendingPicture.Kind, _ find: () -> Found) -> Found {
        if let known = last.withLock({ $0 }), known.place == place, known.kind == kind { return known.found }
        let found = find()
        last.withLock { $0 = (place, kind, found) }
        return found
    }

    /// The chunk `request` asks for of a picture of `size` bytes, read by `read(offset, count)`.
    private func chunk(
        _ request: PendingPicture, size: Int, mimeType: String?, read: (Int, Int) -> [UInt8]?
    ) -> Result<PictureChunk?, MPDError> {
        guard request.offset <= size else {
            return .failure(MPDError(.argument, "Offset too large (the picture has \(size) bytes)"))
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
