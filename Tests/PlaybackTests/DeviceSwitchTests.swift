import Foundation
import LibPThread
import Playback
import ShuffleCore
import ShuffleTestSupport
import Testing

/// `useDevice`: another output chosen mid-track plays on from the place heard, with nothing skipped and
/// nothing played twice; a device that fails is reported (not retried) when the owner chooses outputs.
@Suite(.serialized) struct DeviceSwitchTests {
    let quiet = Log(label: "test", minimum: .error) { _ in }

    @Test func aTrackMovedToAnotherDeviceWhilePausedPlaysOnThereFromItsPlace() async throws {
        let library = try GeneratedLibrary(tracks: 1, formats: "same", seconds: "3")
        defer { library.remove() }
        let first = CaptureFile(), second = CaptureFile()
        defer {
            first.remove()
            second.remove()
        }
        var configuration = PlaybackConfiguration(device: first.device, seed: 1, volume: 20, once: true)
        configuration.retriesDevice = false
        let engine = PlaybackEngine(
            catalog: InMemoryCatalog(tracks: library.catalogTracks()), configuration: configuration,
            sleeper: RecordingSleeper(), log: quiet, announce: { _, _ in })
        // Queued before run(): handled in this order once the track has started on the first device.
        engine.send(.pause)
        engine.useDevice(second.device)
        engine.send(.play)
        let finish = try await engine.run()
        #expect(finish == .cycleComplete)
        let total = Int(library.entries.filter { $0.kind == "track" }.compactMap(\.frames).reduce(0, +))
        let before = first.bytes().count / 4, after = second.bytes().count / 4
        // Nothing skipped: the second device got the track from the place heard on the first. The file PCM writes
        // what it is given at once, so the first file also holds what sat in the device's buffer at the pause,
        // which `drop` discards on a sound card (never heard): at most a few periods.
        #expect(after <= total && before + after >= total - 2 * 44, "\(before) + \(after) frames of \(total)")
        #expect(before + after - total <= 8192, "\(before) + \(after) frames of \(total)")
    }

    @Test func aDeviceThatFailsIsReportedWithItsNameAndNotTriedAgainByTheEngine() async throws {
        let library = try GeneratedLibrary(tracks: 1, formats: "same", seconds: "0.5")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let sleeper = RecordingSleeper()
        let notices = PThreadMutex<[PlaybackNotice]>([])
        var configuration = PlaybackConfiguration(device: "no_such_pcm_for_shufflebox", seed: 1, once: true)
        configuration.retriesDevice = false
        configuration.saveInterval = .seconds(60)
        let engine = PlaybackEngine(
            catalog: InMemoryCatalog(tracks: library.catalogTracks()), configuration: configuration,
            sleeper: sleeper, log: quiet,
            notify: { notice in
                notices.withLock { $0.append(notice) }
            }, announce: { _, _ in })
        let task = Task(executorPreference: engine.executor) { try await engine.run() }
        let reported = await Self.wait {
            notices.withLock { $0 }.contains {
                if case .outputFailed(let device, _, let gone) = $0 {
                    device == "no_such_pcm_for_shufflebox" && !gone
                } else {
                    false
                }
            }
        }
        #expect(reported, "\(notices.withLock { $0 })")
        #expect(sleeper.requested.filter { $0 != .seconds(60) }.isEmpty, "no retry timer of its own")
        // The owner's choice: the next output. The track plays there, whole.
        engine.useDevice(capture.device)
        #expect(try await task.value == .cycleComplete)
        let total = Int(library.entries.filter { $0.kind == "track" }.compactMap(\.frames).reduce(0, +))
        #expect(capture.bytes().count / 4 == total)
    }

    static func wait(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return false
    }
}
