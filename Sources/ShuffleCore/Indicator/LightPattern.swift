/// What the status light shows, in the terms the kernel's LED triggers can carry out by themselves: steady,
/// a `timer` blink, or a `pattern` sequence. The daemon writes one and sleeps; the kernel does the blinking,
/// so a blinking light costs the process no wake-ups.
public enum LightPattern: Equatable, Sendable {
    /// Dark.
    case off
    /// Lit.
    case on
    /// Lit `onMs`, dark `offMs`, again and again (the `timer` trigger).
    case blink(onMs: Int, offMs: Int)
    /// The steps in turn, forever or `once` (the `pattern` trigger).
    case sequence([LightStep], once: Bool)

    /// Whether the light changes by itself over time.
    public var isBlinking: Bool {
        switch self {
        case .off, .on: false
        case .blink, .sequence: true
        }
    }
}

/// One step of a `LightPattern.sequence`: lit or dark, for this long.
public struct LightStep: Equatable, Sendable {
    /// Whether the light is lit during the step.
    public var lit: Bool
    /// How long the step lasts.
    public var milliseconds: Int

    /// Creates a step.
    public init(lit: Bool, milliseconds: Int) {
        self.lit = lit
        self.milliseconds = milliseconds
    }

    /// A lit step.
    public static func lit(_ milliseconds: Int) -> LightStep { LightStep(lit: true, milliseconds: milliseconds) }
    /// A dark step.
    public static func dark(_ milliseconds: Int) -> LightStep { LightStep(lit: false, milliseconds: milliseconds) }
}
