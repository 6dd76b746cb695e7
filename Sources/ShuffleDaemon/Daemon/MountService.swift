import Glibc
import ShuffleCore

/// The mount table under the library roots: the kernel flags `/proc/self/mountinfo` whenever it changes,
/// and the service reports the library mounts that went and came (`changed`).
final class MountService: Service {
    let name = "mounts"
    private let loop: EventLoop
    private var watcher: MountWatcher
    private let log: Log
    private let changed: (_ gone: [MountEntry], _ appeared: [MountEntry]) -> Void

    /// Opens the mount table (`path`: another file in tests); nothing is reported until `start()`.
    init(
        loop: EventLoop, roots: [String], path: String = "/proc/self/mountinfo", log: Log,
        changed: @escaping (_ gone: [MountEntry], _ appeared: [MountEntry]) -> Void
    ) throws(DaemonError) {
        self.loop = loop
        self.log = log
        self.changed = changed
        watcher = try MountWatcher(roots: roots, path: path)
    }

    /// Watches the table; the mounts already there are `current` (the router reads them as it starts).
    func start() throws(DaemonError) {
        _ = watcher.refresh()
        loop.watch(watcher.descriptor, events: Int16(POLLPRI)) { [unowned self] _ in self.tableChanged() }
    }

    func stop() { loop.unwatch(watcher.descriptor) }

    /// The library mounts present now.
    var current: [MountEntry] { watcher.current }

    /// Replaces the library roots (after SIGHUP) and reports the difference.
    func setRoots(_ roots: [String]) {
        watcher.setRoots(roots)
        tableChanged()
    }

    /// Reads the table again and reports what changed (also called by tests).
    func tableChanged() {
        let change = watcher.refresh()
        // Any mount anywhere in the daemon's namespace wakes it once; the line tells such a wake from others.
        log.debug(
            "mount table changed: \(change.appeared.count) appeared, \(change.gone.count) gone under the library roots")
        changed(change.gone, change.appeared)
    }
}
