/// Which pattern the status light shows: the daemon's state and the triggers the kernel offers in, a
/// `LightPattern` out. Pure, so every state is checked by a table.
///
/// | state | with `pattern` | with `timer` only |
/// |---|---|---|
/// | playing | on | on |
/// | paused | slow blink, 1 s on, 1 s off | the same |
/// | indexing | fast blink, 100 ms on, 100 ms off | the same |
/// | no library | two short blinks every 2 s | one short blink every 2 s |
/// | error | three short blinks every 2 s | short blinks twice a second |
/// | refused press (locked) | a brief flash, then the state's pattern | the same, by `timer` |
///
/// Without even the `timer` trigger (module not loaded) every blinking pattern is dark: playing still
/// shows as lit, everything else as off.
public enum LightChoice {
    /// How long a short blink is lit.
    public static let shortBlinkMs = 150
    /// The period of the no-library and error sequences.
    public static let sequencePeriodMs = 2_000

    /// The pattern for `state`, given the triggers the LED offers.
    public static func pattern(for state: DaemonState, triggers: Set<String>) -> LightPattern {
        let wanted: LightPattern
        let hasPattern = triggers.contains("pattern")
        switch state {
        case .playing: wanted = .on
        case .paused: wanted = .blink(onMs: 1_000, offMs: 1_000)
        case .indexing: wanted = .blink(onMs: 100, offMs: 100)
        case .noLibrary:
            wanted = hasPattern ? shortBlinks(2) : .blink(onMs: shortBlinkMs, offMs: sequencePeriodMs - shortBlinkMs)
        case .error:
            wanted = hasPattern ? shortBlinks(3) : .blink(onMs: shortBlinkMs, offMs: 500 - shortBlinkMs)
        }
        return degraded(wanted, triggers: triggers)
    }

    /// The brief flash that answers a press the lock refused, and how long after it was written the state's
    /// own pattern is to be shown again (the flash plays once; the daemon restores the pattern then).
    public static func refusedPress(triggers: Set<String>) -> (pattern: LightPattern, restoreAfterMs: Int) {
        if triggers.contains("pattern") {
            return (.sequence([.dark(100), .lit(250), .dark(100)], once: true), 450)
        }
        // The timer starts lit: 250 ms lit, then dark until the pattern comes back.
        return (degraded(.blink(onMs: 250, offMs: 100), triggers: triggers), 350)
    }

    /// `count` short blinks, each followed by a short gap, the last gap filling the 2 s period.
    static func shortBlinks(_ count: Int) -> LightPattern {
        let gap = 250
        var steps: [LightStep] = []
        for index in 0..<count {
            steps.append(.lit(shortBlinkMs))
            let rest = sequencePeriodMs - count * shortBlinkMs - (count - 1) * gap
            steps.append(.dark(index == count - 1 ? rest : gap))
        }
        return .sequence(steps, once: false)
    }

    /// `pattern` as far as the triggers can show it.
    static func degraded(_ pattern: LightPattern, triggers: Set<String>) -> LightPattern {
        switch pattern {
        case .off, .on: return pattern
        case .blink: return triggers.contains("timer") ? pattern : .off
        case .sequence:
            return triggers.contains("pattern") ? pattern : .off
        }
    }
}
