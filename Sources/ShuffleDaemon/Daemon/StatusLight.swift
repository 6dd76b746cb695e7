import Indicator
import LibLinux
import ShuffleCore

/// The board's status light, on the event loop's thread: shows the daemon's state as a pattern the
/// kernel blinks by itself (`LightChoice`, `LEDPlan`), so nothing here wakes up while the light blinks.
/// It writes only when the pattern changes. Without the LED, or without the right to write it, it says
/// so once and the daemon carries on.
final class StatusLight {
    /// After a trigger change the kernel creates the trigger's attributes owned by root; udev then hands
    /// them to the daemon's group (board/common/99-shufflebox-leds.rules) a moment later. A write refused in
    /// that moment is tried again this often (times the attempt number), a few times, then given up.
    static let retryStep: UInt64 = 50_000_000
    /// Attempts after a refused write (about 1.8 s in all).
    static let retries = 8

    private let loop: EventLoop
    private let log: Log
    private let device: LEDDevice
    private let activeLow: Bool
    /// The pattern shown (or being written).
    private var wanted: LightPattern?
    private var pending: [LEDWrite] = []
    private var attempt = 0
    private var complained = false

    private init(device: LEDDevice, activeLow: Bool, loop: EventLoop, log: Log) {
        self.device = device
        self.activeLow = activeLow
        self.loop = loop
        self.log = log
    }

    /// The light for the daemon's `led` setting and the board's `[led]`; nil (said once) when there is none.
    static func open(configured: String?, board: BoardConfig?, loop: EventLoop, log: Log) -> StatusLight? {
        guard let settings = LEDSettings.resolve(configured: configured, board: board?.led?.settings) else {
            log.debug("no status light configured")
            return nil
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
                return StatusLight(device: device, activeLow: settings.activeLow, loop: loop, log: log)
            } catch {
                if error.isMissing { continue }
                log.warning("status light \(path): \(error); carrying on without it")
                return nil
            }
        }
        log.notice(
            "no status light: no LED at \(settings.paths.joined(separator: " or ")); carrying on without it")
        return nil
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
        loop.setTimer("light-flash", at: TimerFD.now() + UInt64(restoreAfterMs) * 1_000_000) { [weak self] in
            guard let self, self.wanted == nil, let shown else { return }
            self.wanted = shown
            self.display(shown)
        }
    }

    /// Hands the LED back as it was found (its own trigger, such as the Pi's `mmc0`), when the daemon stops.
    func retire() {
        loop.setTimer("light", at: nil)
        loop.setTimer("light-flash", at: nil)
        for write in LEDPlan.restore(device.found) {
            do throws(LEDError) { try device.write(write) } catch { log.debug("light: \(error)") }
        }
    }

    // MARK: - Writing

    private func display(_ pattern: LightPattern) {
        pending = LEDPlan.writes(
            for: pattern, activeLow: activeLow, maxBrightness: device.found.maxBrightness,
            currentTrigger: device.trigger)
        attempt = 0
        loop.setTimer("light", at: nil)
        log.debug("light: \(pending.map(\.description).joined(separator: " "))")
        flush()
    }

    private func flush() {
        while let next = pending.first {
            do throws(LEDError) {
                try device.write(next)
                pending.removeFirst()
            } catch {
                // Only a trigger's own attribute can be waiting for udev; `trigger` and `brightness` cannot.
                let racing = error.isPermission && next.attribute != "trigger" && next.attribute != "brightness"
                if racing && attempt < Self.retries {
                    attempt += 1
                    let at = TimerFD.now() + Self.retryStep * UInt64(attempt)
                    loop.setTimer("light", at: at) { [unowned self] in self.flush() }
                    return
                }
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
