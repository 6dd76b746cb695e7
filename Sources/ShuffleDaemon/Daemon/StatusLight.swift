import Indicator
import LibLinux
import ShuffleCore

/// The board's status light, on the event loop's thread: shows the daemon's state as a pattern the
/// kernel blinks by itself (`LightChoice`, `LEDPlan`), so nothing here wakes up while the light blinks.
/// It writes only when the pattern changes. Without the LED, or without the right to write it, it says
/// so once and the daemon carries on.
final class StatusLight {
    /// udev hands the LED's attributes to the daemon's group (board/common/99-shufflebox-leds.rules): at
    /// boot when its coldplug comes to the LED, which can be long after the daemon started (seen: 10-40 s
    /// in the arm64 image test, emulated on a loaded host), and a moment after each trigger change, whose
    /// attributes the kernel makes anew. A write refused with EACCES or EPERM is therefore tried again,
    /// after this times the attempt number (at most `retryCap` apart), until `retryFor` has passed since
    /// the first refusal. A read-only /sys (EROFS) will not change: that is said at once. Nothing wakes
    /// once the write lands.
    static let retryStep: UInt64 = 50_000_000
    static let retryCap: UInt64 = 1_000_000_000
    static let retryFor: UInt64 = 120_000_000_000

    private let loop: EventLoop
    private let log: Log
    private let device: LEDDevice
    private let activeLow: Bool
    /// The pattern shown (or being written).
    private var wanted: LightPattern?
    private var pending: [LEDWrite] = []
    private var attempt = 0
    /// When the pending write was first refused (TimerFD's clock), while it waits for udev.
    private var refusedSince: UInt64?
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
        refusedSince = nil
        loop.setTimer("light", at: nil)
        log.debug("light: \(pending.map(\.description).joined(separator: " "))")
        flush()
    }

    private func flush() {
        while let next = pending.first {
            do throws(LEDError) {
                try device.write(next)
                pending.removeFirst()
                if let since = refusedSince {
                    refusedSince = nil
                    log.debug("light: \(next.attribute) writable after \((TimerFD.now() - since) / 1_000_000) ms")
                }
            } catch {
                let now = TimerFD.now()
                if error.isPermission && !error.isReadOnly {
                    let since = refusedSince ?? now
                    refusedSince = since
                    if now - since < Self.retryFor {
                        attempt += 1
                        let at = now + min(Self.retryStep * UInt64(attempt), Self.retryCap)
                        loop.setTimer("light", at: at) { [unowned self] in self.flush() }
                        return
                    }
                }
                refusedSince = nil
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
