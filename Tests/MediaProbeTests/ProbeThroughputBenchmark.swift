import Foundation
import MediaProbe
import ShuffleCore
import Testing

/// Probes every file under `$MEDIAPROBE_BENCH_DIR` and prints files per second and CPU time
/// (a benchmark, not a check of speed). Run it in release:
/// `MEDIAPROBE_BENCH_DIR=/tmp/lib swift test -c release --filter ProbeThroughputBenchmark`
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAPROBE_BENCH_DIR"] != nil, "set MEDIAPROBE_BENCH_DIR"))
struct ProbeThroughputBenchmark {
    @Test func probesALibrary() throws {
        let root = try #require(ProcessInfo.processInfo.environment["MEDIAPROBE_BENCH_DIR"])
        var paths: [PathBytes] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + relative
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                paths.append(PathBytes(full))
            }
        }
        var usageBefore = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usageBefore)
        let clock = ContinuousClock()
        var audio = 0
        var frames: Int64 = 0
        let elapsed = clock.measure {
            for path in paths {
                if case .audio(_, let stream) = MediaProbe.probe(path: path) {
                    audio += 1
                    frames += stream.frames
                }
            }
        }
        var usageAfter = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usageAfter)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        let cpu =
            seconds(usageAfter.ru_utime) - seconds(usageBefore.ru_utime) + seconds(usageAfter.ru_stime)
            - seconds(usageBefore.ru_stime)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "probe-benchmark: \(paths.count) files (\(audio) audio, \(frames) PCM frames) in \(wall) s wall, \(cpu) s CPU: "
                + "\(Int(Double(paths.count) / max(wall, 1e-9))) files/s")
        #expect(audio > 0)
    }
}
