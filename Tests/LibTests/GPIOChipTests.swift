import Foundation
import LibGPIOD
import Testing

/// The libgpiod wrapper where this machine allows: no GPIO hardware and no gpio-sim here, so the
/// tests cover finding chips and the errors; edge requests run only with SHUFFLEBOX_GPIO_SIM set.
@Suite struct GPIOChipTests {
    @Test func openingSomethingThatIsNotAChipNamesThePathAndTheReason() {
        #expect {
            try GPIOChip.open(path: "/dev/null")
        } throws: { error in
            guard let error = error as? GPIOError else { return false }
            return error.function == "gpiod_chip_open" && error.context == "/dev/null" && error.code != 0
        }
    }

    @Test func findingAChipThatIsNotThereListsWhatWasFound() {
        #expect {
            try GPIOChip.find(labelOrName: "pinctrl-nothing", devices: "/nonexistent")
        } throws: { error in
            (error as? GPIOError)?.description.contains("pinctrl-nothing: found no GPIO chips") == true
        }
    }

    @Test func chipPathsListsOnlyGPIOChips() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["gpiochip1", "gpiochip0", "ttyS0"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil)
        }
        #expect(GPIOChip.chipPaths(in: dir.path) == ["\(dir.path)/gpiochip0", "\(dir.path)/gpiochip1"])
        // Plain files are not chips: the search reports them as unopenable rather than crashing.
        #expect(throws: GPIOError.self) { try GPIOChip.find(labelOrName: "x", devices: dir.path) }
    }

    /// With a gpio-sim chip labelled `shufflebox-buttons` (board/qemu/README.md), request line 0.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHUFFLEBOX_GPIO_SIM"] != nil, "needs gpio-sim"))
    func requestsBothEdgesOnASimulatedChip() throws {
        let chip = try GPIOChip.find(labelOrName: "shufflebox-buttons")
        let line = try chip.requestEdges(offset: 0, consumer: "shufflebox-test", activeLow: true, bias: .pullUp)
        #expect(line.fileDescriptor >= 0)
    }
}
