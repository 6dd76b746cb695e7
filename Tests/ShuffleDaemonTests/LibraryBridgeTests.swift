import Foundation
import LibPThread
import MusicLibrary
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The daemon's indexing glue: a stick that goes away cancels its run.
@Suite(.serialized, .enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
struct LibraryBridgeTests {
    let scratch: TemporaryDirectory
    let lines = Locked<[String]>([])

    init() throws { scratch = try TemporaryDirectory(prefix: "library-bridge") }

    /// The calling thread's folder in `/proc` (`/proc/PID/task/TID`): it goes when the thread ends.
    static func threadFolder() -> String {
        "/proc/" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "?")
    }

    @Test func stopIndexingCancelsTheRunAfterItsCurrentBatch() throws {
        let root = scratch.appending("stick")
        let tracks = Indexer.batchSize * 3
        try TestLibrary.generate(
            at: root, tracks: tracks, seed: 2, formats: .same, broken: 0, extras: false, seconds: 1)
        let lines = self.lines
        let log = Log(label: "test", minimum: .debug) { line in lines.update { $0.append(line) } }
        let database = scratch.path + "/library.db"
        let bridge = try LibraryBridge(path: database, log: log)
        let volume = DaemonMachine.Stick(id: "uuid:test-stick", mountPoint: root.path)
        let reports = Locked<[IndexReport]>([])
        // The run reports on a thread of its own, which ends with the run.
        let runThread = Locked<String?>(nil)
        // The daemon hears of the unplug as soon as the first tracks are in.
        bridge.startIndexing(volume) { [bridge] (report: IndexReport) in
            reports.update { $0.append(report) }
            if report == .firstPlayable {
                runThread.set(Self.threadFolder())
                bridge.stopIndexing(volumeID: volume.id)
            }
        }
        #expect(DaemonHarness.wait(seconds: 60) { runThread.value != nil }, "\(lines.value)")
        let thread = runThread.value ?? "/"
        #expect(thread.contains("/task/"), "the run's thread: \(thread)")
        #expect(
            DaemonHarness.wait(seconds: 60) { !FileManager.default.fileExists(atPath: thread) },
            "the run did not end: \(thread)\n\(lines.value)")
        #expect(reports.value == [.firstPlayable], "nothing is reported after the cancel")
        let check = try LibraryDatabase(path: database, create: false)
        let stored = try #require(try check.existingVolume(key: volume.id))
        let indexed = try check.counts(of: stored).tracks
        #expect(indexed > 0 && indexed < tracks, "the first batch is kept, the run stopped there: \(indexed)")

        // A new run of the same stick indexes the rest.
        lines.set([])
        bridge.startIndexing(volume) { (report: IndexReport) in reports.update { $0.append(report) } }
        let finished = IndexReport.finished(playable: tracks, changed: true)
        #expect(DaemonHarness.wait(seconds: 60) { reports.value.contains(finished) }, "\(lines.value)")
        #expect(reports.value.last == finished)
    }

    @Test func aStickThatGoesAwayTakesItsListingAlongEvenOneStillBeingRead() throws {
        let root = scratch.appending("stick")
        try TestLibrary.generate(at: root, tracks: 30, seed: 3, formats: .same, broken: 0, extras: false, seconds: 1)
        let lines = self.lines
        let log = Log(label: "test", minimum: .debug) { line in lines.update { $0.append(line) } }
        let bridge = try LibraryBridge(path: scratch.path + "/library.db", log: log)
        let volume = DaemonMachine.Stick(id: "uuid:listing-stick", mountPoint: root.path)
        let finished = Locked(false)
        bridge.startIndexing(volume) { report in
            if report == .finished(playable: 30, changed: true) { finished.set(true) }
        }
        #expect(DaemonHarness.wait(seconds: 60) { finished.value }, "\(lines.value)")
        let read = DispatchSemaphore(value: 0)
        bridge.refreshListing(volumeID: volume.id) { read.signal() }
        #expect(read.wait(timeout: .now() + 30) == .success)
        #expect(bridge.songs(volumeID: volume.id).count == 30)

        // Unplugged: nothing of it is held until it is back.
        bridge.forgetListing(volumeID: volume.id)
        #expect(bridge.listing(volumeID: volume.id) == nil)
        #expect(bridge.counts(volumeID: volume.id) == LibraryCounts())

        // A read asked for before it went away ends after: it is dropped, not kept for a stick that is gone.
        // (The store's queue is held meanwhile, so the read cannot end before the stick leaves.)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let store = bridge.store
        // Started on a queue of its own: this test blocks a thread of the cooperative pool while it waits.
        let holder = QueueExecutor(label: "test.hold-store")
        Task(executorPreference: holder) {
            try await store.perform { _ throws(LibraryError) in
                holding.signal()
                release.wait()
            }
        }
        #expect(holding.wait(timeout: .now() + 30) == .success)
        bridge.refreshListing(volumeID: volume.id) { read.signal() }
        bridge.forgetListing(volumeID: volume.id)
        release.signal()
        // `done` comes after the read was kept or dropped: kept, the listing would be here now.
        #expect(read.wait(timeout: .now() + 30) == .success)
        #expect(bridge.listing(volumeID: volume.id) == nil, "\(lines.value)")

        // Plugged back: read again, once.
        bridge.refreshListing(volumeID: volume.id) { read.signal() }
        #expect(read.wait(timeout: .now() + 30) == .success)
        #expect(bridge.songs(volumeID: volume.id).count == 30)
    }
}
