import Foundation
import Indicator
import ShuffleCore
import ShuffleTestSupport
import Testing

/// The LED-class device against a folder laid out like one: what each state's pattern leaves in its
/// attribute files, the polarity, handing the LED back, and the errors of a missing or read-only LED.
@Suite struct LEDDeviceTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory(prefix: "shufflebox-led") }

    /// Shows `states` one after another on one device (so triggers already in force are skipped) and
    /// returns what the folder held after each.
    func show(
        _ states: [DaemonState], on folder: LEDClassFolder, device given: LEDDevice? = nil, activeLow: Bool = false
    ) throws -> [String] {
        let device = try given ?? LEDDevice.open(folder.path)
        var shown: [String] = []
        for state in states {
            let pattern = LightChoice.pattern(for: state, triggers: device.found.triggers)
            for write in LEDPlan.writes(
                for: pattern, activeLow: activeLow, maxBrightness: device.found.maxBrightness,
                currentTrigger: device.trigger)
            {
                try device.write(write)
            }
            shown.append(folder.shown)
        }
        return shown
    }

    static let states: [DaemonState] = [
        .noLibrary, .indexing, .playing, .paused, .indexing, .error("no device"), .playing,
    ]

    @Test func everyStateLeavesItsTriggerBrightnessAndDelays() throws {
        let folder = try LEDClassFolder(in: directory.path)
        let shown = try show(Self.states, on: folder)
        #expect(
            shown == [
                "trigger=pattern repeat=-1 pattern=255 150 255 0 0 250 0 0 255 150 255 0 0 1450 0 0",
                "trigger=timer delay_on=100 delay_off=100",
                "trigger=none brightness=255",
                "trigger=timer delay_on=1000 delay_off=1000",
                "trigger=timer delay_on=100 delay_off=100",
                "trigger=pattern repeat=-1 pattern=255 150 255 0 0 250 0 0 255 150 255 0 0 250 0 0 255 150 255 0 0 1050 0 0",
                "trigger=none brightness=255",
            ])
    }

    @Test func withoutThePatternTriggerTheTimerShowsEveryState() throws {
        let folder = try LEDClassFolder(in: directory.path, triggers: "none [mmc0] timer heartbeat", maxBrightness: 1)
        let shown = try show(Self.states, on: folder)
        #expect(
            shown == [
                "trigger=timer delay_on=150 delay_off=1850",
                "trigger=timer delay_on=100 delay_off=100",
                "trigger=none brightness=1",
                "trigger=timer delay_on=1000 delay_off=1000",
                "trigger=timer delay_on=100 delay_off=100",
                "trigger=timer delay_on=150 delay_off=350",
                "trigger=none brightness=1",
            ])
    }

    @Test func anActiveLowLedIsWrittenInverted() throws {
        let folder = try LEDClassFolder(in: directory.path, maxBrightness: 1)
        let shown = try show([.playing, .noLibrary, .paused], on: folder, activeLow: true)
        #expect(
            shown == [
                "trigger=none brightness=0",
                "trigger=pattern repeat=-1 pattern=0 150 0 0 1 250 1 0 0 150 0 0 1 1450 1 0",
                "trigger=timer delay_on=1000 delay_off=1000",
            ])
    }

    /// The lock does not exist yet; its pattern does: a flash played once by the kernel.
    @Test func theRefusedPressFlashIsWrittenToPlayOnce() throws {
        let folder = try LEDClassFolder(in: directory.path)
        let device = try LEDDevice.open(folder.path)
        let flash = LightChoice.refusedPress(triggers: device.found.triggers)
        for write in LEDPlan.writes(
            for: flash.pattern, activeLow: false, maxBrightness: 255, currentTrigger: device.trigger)
        {
            try device.write(write)
        }
        #expect(folder.shown == "trigger=pattern repeat=1 pattern=0 100 0 0 255 250 255 0 0 100 0 0")
    }

    @Test func theLedIsHandedBackWithItsOwnTrigger() throws {
        let folder = try LEDClassFolder(in: directory.path, triggers: "none [mmc0] timer pattern")
        let device = try LEDDevice.open(folder.path)
        #expect(device.found.trigger == "mmc0")
        let shown = try show([.playing, .paused], on: folder, device: device)
        #expect(shown.last == "trigger=timer delay_on=1000 delay_off=1000")
        #expect(device.trigger == "timer")
        for write in LEDPlan.restore(device.found) { try device.write(write) }
        #expect(folder.value("trigger") == "mmc0")
    }

    @Test func aMissingLedIsMissing() {
        var caught: LEDError?
        do { _ = try LEDDevice.open(directory.path + "/nothing") } catch { caught = error }
        #expect(caught?.isMissing == true, "\(String(describing: caught))")
        #expect(caught?.description.hasPrefix("cannot open \(directory.path)/nothing/trigger: ") == true)
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a read-only bind mount"))
    func aReadOnlyLedRefusesWritesWithAPermissionError() throws {
        let folder = try LEDClassFolder(in: directory.path)
        let mounted = try Run.program("/usr/bin/mount", ["--bind", "-o", "ro", folder.path, folder.path])
        #expect(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Run.program("/usr/bin/umount", [folder.path]) }
        let device = try LEDDevice.open(folder.path)
        var caught: LEDError?
        do { try device.write(LEDWrite("trigger", "timer")) } catch { caught = error }
        #expect(caught?.isPermission == true, "\(String(describing: caught))")
        #expect(device.trigger == nil || device.trigger == "none")
        #expect(folder.value("trigger").hasPrefix("[none]"))
    }
}
