import Foundation
import ShuffleTestSupport
import Testing

/// A sound device that cannot be opened, with the daemon as a real process: `status` says `error` with a
/// reason naming the device, the daemon stays up, and it plays by itself once the device exists.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct DeviceFailureTests {
    @Test func aDeviceThatCannotBeOpenedIsAnErrorStateNamingItAndTheDaemonStaysUp() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        try daemon.start(device: "nosuchdevice")
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "error" }, "\(daemon.log)")
        let status = try daemon.status()
        let reason = status["error"] as? String ?? ""
        #expect(reason.hasPrefix("cannot open ALSA device 'nosuchdevice': "), "\(status)")
        // Retries go on in the background; the daemon keeps answering and keeps the error. Through a second
        // of them: that it neither ends nor clears the error can only be waited out.
        Thread.sleep(forTimeInterval: 1)
        #expect(daemon.process.isRunning)
        #expect(daemon.state() == "error")
        #expect(try daemon.mpc(["status"]).status == 0)
        #expect(daemon.stop() == 0)
    }

    @Test func theErrorClearsAndMusicPlaysWhenTheDeviceAppears() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 10)
        let daemon = try DaemonHarness()
        // alsa-lib re-reads its configuration files when they change (by inode and time), so defining the
        // PCM while the daemon runs is a device appearing, as a USB DAC plugged in late would be.
        let conf = daemon.directory.appending("late.conf")
        try "# pcm.late is defined later by the test\n".write(to: conf, atomically: true, encoding: .utf8)
        let environment = ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(conf.path)"]
        try daemon.start(device: "late", environment: environment)
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "error" }, "\(daemon.log)")
        let error = try daemon.status()["error"] as? String
        #expect(error?.contains("'late'") == true)

        let definition = """
            pcm.late {
                type file
                slave.pcm "null"
                file "\(daemon.capture.path)"
                format "raw"
            }

            """
        // A new file renamed into place: a new inode, so the change is seen whatever the clock's grain.
        let staged = daemon.directory.appending("late.conf.new")
        try definition.write(to: staged, atomically: false, encoding: .utf8)
        #expect(rename(staged.path, conf.path) == 0)
        // The back-off is at most 5 s between attempts.
        #expect(DaemonHarness.wait(seconds: 15) { daemon.state() == "playing" }, "\(daemon.log)")
        let cleared = try daemon.status()["error"] as? String
        #expect(cleared == nil)
        let grew = DaemonHarness.wait(seconds: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: daemon.capture.path))?[.size] as? Int ?? 0) > 0
        }
        #expect(grew, "no audio reached the device after it appeared:\n\(daemon.log)")
        #expect(daemon.stop() == 0)
    }
}
