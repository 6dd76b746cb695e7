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

/// A control server on its own loop over a `SlowIndex`.
private struct ServedIndex {
    let scratch: TemporaryDirectory
    let socket: String
    let index = SlowIndex()
    let loop: EventLoop
    let server: ControlServer

    init() throws {
        scratch = try TemporaryDirectory(prefix: "control-search")
        socket = scratch.appending("control.sock").path
        loop = try EventLoop()
        let log = Log(label: "control", minimum: .info) { _ in }
        server = try ControlServer(loop: loop, path: socket, tcp: nil, timeoutSeconds: 60, log: log, backend: index)
        PThread.startDetached(name: "test-loop") { [loop] in loop.run() }
    }

    /// Lets any search still waiting finish, and stops the server and its loop.
    func stop() {
        index.gate.signal()
        loop.post { [server, loop] in
            server.shutdown()
            loop.stop()
        }
    }
}

/// The control socket's loop never waits for the index: a search is answered when the index answers, and
/// meanwhile every other client (and the buttons, on the same loop) is served.
@Suite struct ControlServerSearchTests {
    @Test func aSlowSearchHoldsUpOnlyItsOwnClientAndItsAnswersKeepTheirOrder() throws {
        let served = try ServedIndex()
        defer { served.stop() }
        let (socket, index) = (served.socket, served.index)

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

    /// A search inside a command list does not make the loop wait either (it used to be waited for, up to 3 s):
    /// the list's answer is held at the search, and goes on once the index has answered.
    @Test func aSlowSearchInACommandListHoldsUpOnlyItsOwnClient() throws {
        let served = try ServedIndex()
        defer { served.stop() }
        let (socket, index) = (served.socket, served.index)

        let searcher = try MPDConnection(socket: socket)
        try searcher.send("command_list_ok_begin\nping\nsearch title one\ncurrentsong\ncommand_list_end\nping")
        let other = try MPDConnection(socket: socket)
        #expect(try other.dictionary("status")["state"] == "stop", "served while the list's search waits")
        index.gate.signal()
        let list = try searcher.readAnswer()
        #expect(list.first == "list_OK", "ping's")
        #expect(list.contains("file: Ann/First/01 One.mp3"))
        #expect(list.last == "list_OK", "currentsong's, after the search's")
        #expect(list.filter { $0 == "list_OK" }.count == 3)
        #expect(try searcher.readAnswer().isEmpty, "the ping after the list")
    }
}
