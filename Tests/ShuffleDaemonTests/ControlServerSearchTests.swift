import Foundation
import LibPThread
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// An index that answers only when the test lets it: the library's SQLite connection busy behind a write
/// and its fsync on a slow SD card, or a long listing read ahead of the search.
private final class SlowIndex: MPDBackend, @unchecked Sendable {
    // @unchecked: the semaphore is thread-safe; nothing else is stored.
    let gate = DispatchSemaphore(value: 0)

    func snapshot() -> PlayerSnapshot { PlayerSnapshot(state: .paused) }
    func perform(_ action: PlayerAction) -> MPDError? { nil }

    /// The search, taking as long as the gate stays shut.
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] {
        gate.wait()
        return [SongInfo(id: 7, path: "Ann/First/01 One.mp3", title: "One", artist: "Ann")]
    }

    var searchesInBackground: Bool { true }

    func searchInBackground(
        _ constraints: [SearchConstraint], exact: Bool,
        done: @escaping @Sendable (Result<[SongInfo], MPDError>) -> Void
    ) {
        PThread.startDetached(name: "slow-index") { [self] in
            do throws(MPDError) {
                done(.success(try search(constraints, exact: exact)))
            } catch {
                done(.failure(error))
            }
        }
    }
}

/// The control socket's loop never waits for the index: a search is answered when the index answers, and
/// meanwhile every other client (and the buttons, on the same loop) is served.
@Suite struct ControlServerSearchTests {
    @Test func aSlowSearchHoldsUpOnlyItsOwnClientAndItsAnswersKeepTheirOrder() throws {
        let scratch = try TemporaryDirectory(prefix: "control-search")
        let socket = scratch.appending("control.sock").path
        let index = SlowIndex()
        let loop = try EventLoop()
        let log = Log(label: "control", minimum: .info) { _ in }
        let server = try ControlServer(
            loop: loop, path: socket, tcp: nil, timeoutSeconds: 60, log: log, backend: index)
        PThread.startDetached(name: "test-loop") { loop.run() }
        defer {
            index.gate.signal()
            loop.post {
                server.shutdown()
                loop.stop()
            }
        }

        let searcher = try MPDConnection(socket: socket)
        // A search and, right behind it, two more requests: their answers must come after the search's.
        try searcher.send("search title one\nping\ncurrentsong")
        // While the index has not answered, another client is served at once (with the old, waiting loop
        // this `status` got no answer until the search's, and the connection timed out).
        let other = try MPDConnection(socket: socket)
        #expect(try other.dictionary("status")["state"] == "stop", "nothing plays")
        #expect(try other.run("ping").isEmpty)

        index.gate.signal()
        let found = try searcher.readAnswer()
        #expect(found.contains("file: Ann/First/01 One.mp3"))
        #expect(found.contains("Title: One"))
        #expect(try searcher.readAnswer().isEmpty, "ping's OK, after the search's")
        #expect(try searcher.readAnswer().isEmpty, "currentsong (nothing plays), after ping's")
        #expect(try searcher.run("ping").isEmpty, "the client goes on as usual")
    }
}
