import Dispatch
import Glibc
import LibLinux
import LibPThread
import Playback
import ShuffleCore

/// The entry point: dispatches a parsed `Command` to the code that carries it out.
public enum Shufflebox {
    /// Runs `shufflebox` with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        let command: Command
        do {
            command = try Command.parse(arguments)
        } catch {
            Terminal.error("shufflebox: \(error.message)\n\n\(Usage.text(for: error.command))")
            return ExitCode.usage
        }
        switch command {
        case .help(let name):
            print(Usage.text(for: name))
            return ExitCode.success
        case .version:
            print("shufflebox \(Shufflebox.version)")
            return ExitCode.success
        case .index(let options):
            return await IndexCommand.run(options)
        case .search(let options):
            return await SearchCommand.run(options)
        case .list(let options):
            return await ListCommand.run(options)
        case .play(let options):
            return await PlayCommand.run(options)
        case .run(let options):
            return await RunCommand.run(options)
        case .status(let options):
            return StatusCommand.run(options)
        case .ctl(let options):
            return ControlCommand.run(options)
        case .outputs(let options):
            return OutputsCommand.run(options)
        case .buttons(let options):
            return await ButtonsCommand.run(options)
        case .say(let options):
            return SayCommand.run(options)
        }
    }

    /// Becomes the helper process `arguments` name, and never returns; returns at once for any other command.
    /// `shufflebox measure-loudness` is the loudness scan's decoder (`LoudnessHelper`), which the daemon
    /// starts with a socket as its input; started by hand it says so and exits.
    public static func serveAsHelper(_ arguments: [String]) {
        if arguments == [LoudnessHelper.argument] { LoudnessHelper.serve() }
    }

    /// Process-wide settings that must come before the first thread: call it first thing in `main.swift`,
    /// before the first `await`.
    ///
    /// The long-running commands (`run`, `play`) get one malloc arena. glibc otherwise gives each thread
    /// that allocates at the same time an arena of its own (the loop, the audio thread, the indexer's
    /// probe workers), and what a thread frees stays in its arena: a 16 MiB second arena after indexing
    /// and re-plugging a 10,000-track stick. This cannot wait for `RunCommand`: `main(_:)` already runs on
    /// another thread (see `runToEnd`), whose first allocation would make that second arena.
    /// The audio thread does not allocate while playing, so sharing one arena costs nothing there.
    /// Blocks of 128 KiB or more (a listing's array, a voice's dictionary) keep mappings of their own, which
    /// go back to the kernel when freed instead of leaving holes in the heap (`MallocArenas.mapBlocks`).
    public static func prepareProcess(_ arguments: [String]) {
        if let first = arguments.first, first == "run" || first == "play" {
            MallocArenas.limit(to: 1)
            MallocArenas.mapBlocks(atLeast: 128 * 1024)
        }
    }

    /// Runs `main(_:)` to the end on an executor of its own while the calling thread waits: `main.swift`'s
    /// way in. Awaiting `main(_:)` from top-level code would run it on Swift's global executor, whose first
    /// job starts libdispatch's 1 Hz pool monitor on Linux (see `QueueExecutor`).
    public static func runToEnd(_ arguments: [String]) -> Int32 {
        let status = PThreadMutex<Int32>(ExitCode.failure)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: mainExecutor) {
            let result = await main(arguments)
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 }
    }

    private static let mainExecutor = QueueExecutor(label: "shufflebox.main")

    /// Ends the process with `status`, flushing stdout first.
    public static func exit(_ status: Int32) -> Never {
        fflush(nil)
        Glibc.exit(status)
    }

    /// The version printed by `--version`.
    public static let version = "0.1.0"
}

/// Exit statuses, after BSD's sysexits.h where one fits.
public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// A failure the message explains (no such folder, nothing playable).
    public static let failure: Int32 = 1
    /// The command line was wrong (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// Input data was unusable (`EX_DATAERR`), for example a malformed configuration file.
    public static let dataError: Int32 = 65
    /// A service is unavailable (`EX_UNAVAILABLE`): no daemon, no device.
    public static let unavailable: Int32 = 69
    /// The database or another file could not be created or written (`EX_CANTCREAT`).
    public static let cannotCreate: Int32 = 73
}
