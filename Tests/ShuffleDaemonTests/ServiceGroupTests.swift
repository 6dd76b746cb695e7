import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The service group: list order up, reverse order down, and each service's failure policy.
@Suite struct ServiceGroupTests {
    /// Records its start and stop in a shared journal; fails to start when told.
    final class Recorder: Service {
        let name: String
        let fails: Bool
        let journal: Journal
        init(_ name: String, fails: Bool = false, _ journal: Journal) {
            self.name = name
            self.fails = fails
            self.journal = journal
        }
        func start() throws(DaemonError) {
            if fails { throw DaemonError("\(name) cannot start") }
            journal.lines.append("start \(name)")
        }
        func stop() { journal.lines.append("stop \(name)") }
    }

    final class Journal { var lines: [String] = [] }

    @Test func servicesStartInListOrderAndStopInReverse() throws {
        let journal = Journal()
        let group = ServiceGroup(log: Log(label: "test", minimum: .error) { _ in })
        for name in ["a", "b", "c"] { group.add(Recorder(name, journal)) }
        try group.start()
        #expect(group.running == ["a", "b", "c"])
        group.stop()
        #expect(journal.lines == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
        #expect(group.running.isEmpty)
    }

    @Test func aRequiredServiceThatFailsStopsThoseStartedAndTheStart() {
        let journal = Journal()
        let group = ServiceGroup(log: Log(label: "test", minimum: .error) { _ in })
        group.add(Recorder("a", journal))
        group.add(Recorder("b", journal))
        group.add(Recorder("c", fails: true, journal))
        group.add(Recorder("d", journal))
        #expect(throws: DaemonError.self) { try group.start() }
        #expect(journal.lines == ["start a", "start b", "stop b", "stop a"])
    }

    @Test func anOptionalServiceThatFailsIsSaidAndLeftOut() throws {
        let journal = Journal()
        let lines = Locked<[String]>([])
        let group = ServiceGroup(log: Log(label: "test", minimum: .debug) { line in lines.update { $0.append(line) } })
        group.add(Recorder("light", fails: true, journal), .optional)
        group.add(Recorder("b", journal))
        try group.start()
        let said = lines.value
        #expect(group.running == ["b"])
        #expect(said.contains { $0.contains("light: light cannot start; carrying on without it") })
        group.stop()
        #expect(journal.lines == ["start b", "stop b"])
    }
}
