import Indicator
import LibLinux
import ShuffleCore

/// The board's status light, on the event loop's thread: shows the daemon's state as a pattern the
/// kernel blinks by itself (`LightChoice`, `LEDPlan`), so nothing here wakes up while the light blinks.
/// It writes only when the pattern changes. Without the LED, or without the right to write it, it says
/// so once and the daemon carries on.
final class StatusLight {
    // udev hands the LED's attributes to the daemon's group (board/common/99-shufflebox-leds.rules): at
    // boot when its coldplug comes to the LED, and a moment after each trigger change, whose attributes the
    // kernel makes anew. A write refused with EACCES or EPERM is therefore tried again (`UdevWait`). A
    // read-only /sys (EROFS) will not change: that is said at once.

    private let loop: EventLoop
    private let log: Log
    private let device: LEDDevice
    private let activeLow: Bool
    /// The pattern shown (or being written).
    private var wanted: LightPattern?
    private var pending: [LEDWrite] = []
    /// Since the pending write was first refused, while it waits for udev.
    private var refused: UdevWait?
    private var complained = false

    private init(device: LEDDevice, activeLow: Bool, loop: EventLoop, log: Log) {
        self.device = device
        self.activeLow = activeLow
        self.loop = loop
        self.log = log
    }

    /// What `open` found.
    enum Opening {
        case light(StatusLight)
        /// None of the LED's paths exists (yet: leds-gpio may be loaded by udev's coldplug after the
        /// daemon started, so the caller looks again).
        case missing([String])
        /// No LED configured, or one that cannot be used (said).
        case none
    }

    /// The light for the daemon's `led` setting and the board's `[led]`.
    static func open(configured: String?, board: BoardConfig?, loop: EventLoop, log: Log) -> Opening {
        guard let settings = LEDSettings.resolve(configured: configured, board: board?.led?.settings) else {
            log.debug("no status light configured")
            return .none
        }
        for path in settings.paths {
            do throws(LEDError) {
                let device = try LEDDevice.open(path)
                let triggers = device.found.triggers
                log.info(
                    "status light \(path)\(settings.activeLow ? " (active-low)" : ""): "
                        + "timer \(triggers.contains("timer") ? "yes" : "no"), "
                        + "pattern \(triggers.contains("pattern") ? "yes" : "no")")
                if !triggers.contains("timer") {
                    log.notice(
                        "status light \(path): the kernel offers no timer trigger (modprobe ledtrig-timer); "
                            + "it shows only whether music plays")
                }
                return .light(StatusLight(device: device, activeLow: settings.activeLow, loop: loop, log: log))
            } catch {
                if error.isMissing { continue }
                log.warning("status light \(path): \(error); carrying on without it")
                return .none
            }
        }
        return .missing(settings.paths)
    }

    /// Shows the pattern of `state` (nothing is written when it is the one already shown).
    func show(_ state: DaemonState) {
        let pattern = LightChoice.pattern(for: state, triggers: device.found.triggers)
        guard pattern != wanted else { return }
        wanted = pattern
        log.debug("light: \(state.name)")
        display(pattern)
    }

    /// Flashes once for a press the lock refused, then shows the state's pattern again (one one-shot timer).
    func flashRefused() {
        let (flash, restoreAfterMs) = LightChoice.refusedPress(triggers: device.found.triggers)
        let shown = wanted
        display(flash)
        wanted = nil
        loop.setTimer(.lightFlash, after: .milliseconds(restoreAfterMs)) { [weak self] in
            guard let self, self.wanted == nil, let shown else { return }
            self.wanted = shown
            self.display(shown)
        }
    }

    /// Hands the LED back as it was found (its own trigger, such as the Pi's `mmc0`), when the daemon stops.
    func retire() {
        loop.setTimer(.light, at: nil)
        loop.setTimer(.lightFlash, at: nil)
        for write in LEDPlan.restore(device.found) {
            do throws(LEDError) { try device.write(write) } catch { log.debug("light: \(error)") }
        }
    }

    // MARK: - Writing

    private func display(_ pattern: LightPattern) {
        pending = LEDPlan.writes(
            for: pattern, activeLow: activeLow, maxBrightness: device.found.maxBrightness,
            currentTrigger: device.trigger)
        refused = nil
        loop.setTimer(.light, at: nil)
        log.debug("light: \(pending.map(\.description).joined(separator: " "))")
        flush()
    }

    private func flush() {
        while let next = pending.first {
            do throws(LEDError) {
                try device.write(next)
                pending.removeFirst()
                if let refused {
                    self.refused = nil
                    log.debug("light: \(next.attribute) writable after \(refused.elapsedMs(now: loop.now)) ms")
                }
            } catch {
                if error.isPermission && !error.isReadOnly {
                    var wait = refused ?? UdevWait(since: loop.now)
                    if let at = wait.next(now: loop.now) {
                        refused = wait
                        loop.setTimer(.light, at: at) { [unowned self] in self.flush() }
                        return
                    }
                }
                refused = nil
                pending = []
                if !complained {
                    complained = true
                    log.warning("status light: \(error); carrying on without it")
                }
                return
            }
        }
    }
}
