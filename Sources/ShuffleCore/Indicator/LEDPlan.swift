/// Turns a `LightPattern` into the attribute writes that make the kernel show it, in order. Pure.
///
/// The kernel's rules it follows (Documentation/leds/leds-class.rst, ledtrig-timer, ledtrig-pattern):
/// the trigger is chosen first, because choosing it creates its attributes (`delay_on`/`delay_off` for
/// `timer`, `pattern`/`repeat` for `pattern`) and writing `brightness` 0 removes any trigger. A trigger
/// already in force is not written again: that would recreate its attributes (and undo their
/// permissions) for nothing. A `pattern` step is written as `brightness duration brightness 0`, the
/// kernel's form for a step change rather than a fade.
///
/// `activeLow` is for an LED the kernel drives inverted (wired to 3.3 V, with no `active_low` in its
/// overlay): lit and dark swap, so brightness, delays and steps are written the other way round.
public enum LEDPlan {
    /// The trigger that shows `pattern`.
    public static func trigger(for pattern: LightPattern) -> String {
        switch pattern {
        case .off, .on: "none"
        case .blink: "timer"
        case .sequence: "pattern"
        }
    }

    /// The writes that show `pattern` on an LED whose trigger is `currentTrigger` now.
    public static func writes(
        for pattern: LightPattern, activeLow: Bool, maxBrightness: Int, currentTrigger: String?
    ) -> [LEDWrite] {
        let trigger = trigger(for: pattern)
        var writes: [LEDWrite] = currentTrigger == trigger ? [] : [LEDWrite("trigger", trigger)]
        let level = { (lit: Bool) in lit != activeLow ? maxBrightness : 0 }
        switch pattern {
        case .off, .on:
            writes.append(LEDWrite("brightness", "\(level(pattern == .on))"))
        case .blink(let onMs, let offMs):
            let (first, second) = activeLow ? (offMs, onMs) : (onMs, offMs)
            writes += [LEDWrite("delay_on", "\(max(1, first))"), LEDWrite("delay_off", "\(max(1, second))")]
        case .sequence(let steps, let once):
            let text = steps.map { step in
                let value = level(step.lit)
                return "\(value) \(max(1, step.milliseconds)) \(value) 0"
            }
            writes += [LEDWrite("repeat", once ? "1" : "-1"), LEDWrite("pattern", text.joined(separator: " "))]
        }
        return writes
    }

    /// The writes that hand the LED back as it was found: its trigger, and its brightness when it had none.
    public static func restore(_ found: LEDDescription) -> [LEDWrite] {
        let trigger = found.trigger ?? "none"
        var writes = [LEDWrite("trigger", trigger)]
        if trigger == "none" { writes.append(LEDWrite("brightness", "\(found.brightness)")) }
        return writes
    }
}
