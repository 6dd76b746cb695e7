internal import Glibc
import LibLinux
import LibPThread

/// The audio thread's inbox: commands under a lock, and an eventfd that is readable while any wait. The thread
/// sleeps on the eventfd when idle or paused (a paused player makes no wake-ups at all), and on the eventfd and
/// the device together while playing, so a command is answered at once however full the device's buffer is.
final class AudioMailbox: Sendable {
    private let pending = PThreadMutex<[AudioCommand]>([])
    private let signal: EventFD

    init() throws(LinuxError) { signal = try EventFD() }

    /// The descriptor that is readable while commands wait (for the device's wait to watch).
    var descriptor: Int32 { signal.descriptor }

    /// Posts a command and wakes the thread if it is waiting.
    func post(_ command: AudioCommand) {
        pending.withLock { $0.append(command) }
        signal.signal()
    }

    /// Takes every pending command (cheap and allocation-free when there is none). The eventfd is cleared
    /// before the list is read, so a command posted meanwhile is either taken now or leaves it readable.
    func take() -> [AudioCommand] {
        signal.drain()
        return pending.withLock { commands in
            if commands.isEmpty { return [] }
            let out = commands
            commands.removeAll()
            return out
        }
    }

    /// Blocks until something is posted (spurious returns are harmless: the caller just looks again).
    func wait() {
        var slot = pollfd(fd: signal.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&slot, 1, -1)
    }
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
