@preconcurrency import Dispatch
import LibPThread

/// The audio thread's inbox: commands under a lock, polled once per period while playing; while idle or paused
/// the thread blocks on a semaphore instead, so a paused player makes no wake-ups at all.
final class AudioMailbox: Sendable {
    private let pending = PThreadMutex<[AudioCommand]>([])
    private let signal = DispatchSemaphore(value: 0)

    /// Posts a command and wakes the thread if it is waiting.
    func post(_ command: AudioCommand) {
        pending.withLock { $0.append(command) }
        signal.signal()
    }

    /// Takes every pending command (cheap and allocation-free when there is none).
    func take() -> [AudioCommand] {
        pending.withLock { commands in
            if commands.isEmpty { return [] }
            let out = commands
            commands.removeAll()
            return out
        }
    }

    /// Blocks until something is posted (spurious returns are harmless: the caller just looks again).
    func wait() { signal.wait() }
}

/// Where the audio thread is, for the periodic save: the start token and the heard position in that track.
struct AudioPosition: Sendable, Equatable {
    /// The start the position belongs to (0: none yet).
    var token: UInt64 = 0
    /// Milliseconds into the track that have been heard (written minus still buffered).
    var positionMs: Int64 = 0
    /// Whether the output is held paused.
    var paused = false
}

/// The latest `AudioPosition`, written by the audio thread once per period and read by the engine.
final class PositionBox: Sendable {
    private let value = PThreadMutex(AudioPosition())

    /// The latest position.
    var current: AudioPosition { value.withLock { $0 } }

    /// Replaces the position (no allocation).
    func set(_ position: AudioPosition) { value.withLock { $0 = position } }
}
