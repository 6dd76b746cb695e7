import Foundation
import ShuffleTestSupport
import Testing

/// Runs the real `shufflebox` executable.
@Suite struct CommandLineTests {
    @Test func usageErrorExits64WithTheCommandsUsage() throws {
        let result = try Run.shufflebox(["index"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'index' needs exactly one folder"))
        #expect(result.stderr.contains("usage: shufflebox index DIR"))
        #expect(result.stdout.isEmpty)
    }

    @Test func helpGoesToStdoutAndExitsZero() throws {
        let result = try Run.shufflebox(["help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: shufflebox COMMAND"))
    }
}
