import ShuffleCore

/// The files a volume's index holds, as an index run compares the walk with them: every path in one byte
/// buffer and a fixed-size record per file, in the order of their bytes, found by binary search: no hash
/// table and no array per path, because a known stick plugged back into the daemon is when that run
/// happens, beside the listing being read.
struct KnownFiles {
    private struct Record {
        var offset: UInt32
        var length: UInt32
        var file: LibraryDatabase.KnownFile
        var taken = false
    }

    private var text: [UInt8] = []
    private var records: [Record] = []
    /// Whether the records are in the order of their paths' bytes (the database hands them over so).
    private var sorted = true
    /// Files not taken yet.
    private(set) var count = 0

    init(expectedCount: Int = 0, expectedPathBytes: Int = 0) {
        records.reserveCapacity(expectedCount)
        text.reserveCapacity(expectedPathBytes)
    }

    /// No file is left untaken.
    var isEmpty: Bool { count == 0 }

    /// Whether any of the files is playable.
    var hasPlayable: Bool { records.contains { $0.file.status == .ok } }

    /// Adds a file (the caller adds each path once). A path past what the buffer can address is left out:
    /// the run then sees it as a new file.
    mutating func add(path: UnsafeRawBufferPointer, _ file: LibraryDatabase.KnownFile) {
        guard text.count + path.count < Int(UInt32.max) else { return }
        let record = Record(offset: UInt32(text.count), length: UInt32(path.count), file: file)
        text.append(contentsOf: path)
        if sorted, let last = records.last, !precedes(last, record) { sorted = false }
        records.append(record)
        count += 1
    }

    /// The file at `path`, if it is known and not taken yet; it is taken (it will not be among `untaken`).
    mutating func take(_ path: PathBytes) -> LibraryDatabase.KnownFile? {
        if !sorted { sortRecords() }
        let place: Int? = text.withUnsafeBufferPointer { bytes in
            path.bytes.withUnsafeBufferPointer { wanted in
                var low = 0
                var high = records.count
                while low < high {
                    let middle = (low + high) / 2
                    if Self.slice(bytes, records[middle]).lexicographicallyPrecedes(wanted) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                guard low < records.count, Self.slice(bytes, records[low]).elementsEqual(wanted) else { return nil }
                return low
            }
        }
        guard let place, !records[place].taken else { return nil }
        records[place].taken = true
        count -= 1
        return records[place].file
    }

    /// The files not taken, by path (what vanished from the stick: few, as a rule).
    func untaken() -> [PathBytes: LibraryDatabase.KnownFile] {
        var left: [PathBytes: LibraryDatabase.KnownFile] = [:]
        left.reserveCapacity(count)
        text.withUnsafeBufferPointer { bytes in
            for record in records where !record.taken {
                left[PathBytes(Array(Self.slice(bytes, record)))] = record.file
            }
        }
        return left
    }

    private static func slice(_ bytes: UnsafeBufferPointer<UInt8>, _ record: Record) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(record.offset)..<Int(record.offset) + Int(record.length)])
    }

    private func precedes(_ a: Record, _ b: Record) -> Bool {
        text.withUnsafeBufferPointer { Self.slice($0, a).lexicographicallyPrecedes(Self.slice($0, b)) }
    }

    /// Sorts the records by path (only for rows that came out of order).
    private mutating func sortRecords() {
        let text = self.text
        text.withUnsafeBufferPointer { bytes in
            records.sort { Self.slice(bytes, $0).lexicographicallyPrecedes(Self.slice(bytes, $1)) }
        }
        sorted = true
    }
}
