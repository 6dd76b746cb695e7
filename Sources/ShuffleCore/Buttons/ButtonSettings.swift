/// How a line is biased when requested.
public enum LineBias: String, CaseIterable, Sendable, Hashable {
    /// The internal pull-up (the default: the button connects the pin to ground).
    case pullUp = "pull-up"
    /// The internal pull-down (the button connects the pin to 3.3 V).
    case pullDown = "pull-down"
    /// No internal resistor (an external one is fitted).
    case disabled
    /// Leave the bias as the firmware set it.
    case asIs = "as-is"
}

/// One button of a board: where it is wired, how it is read, and what its gestures do.
public struct ButtonSettings: Equatable, Sendable {
    /// The button.
    public var name: ButtonName
    /// The GPIO line offset on the board's chip (BCM number on a Raspberry Pi), for the GPIO source.
    public var line: Int?
    /// The physical header pin, for the wiring table and messages.
    public var headerPin: Int?
    /// The Linux key code (for example 164, KEY_PLAYPAUSE), for the input-device source.
    public var keyCode: Int?
    /// Whether pressed means a low level (true for a button to ground with a pull-up).
    public var activeLow: Bool
    /// The bias to request.
    public var bias: LineBias
    /// The gesture thresholds.
    public var timing: GestureTiming
    /// The action of each mapped gesture.
    public var actions: [Gesture: ButtonAction]

    /// Creates button settings.
    public init(
        name: ButtonName, line: Int? = nil, headerPin: Int? = nil, keyCode: Int? = nil, activeLow: Bool = true,
        bias: LineBias = .pullUp, timing: GestureTiming = .standard, actions: [Gesture: ButtonAction] = [:]
    ) {
        self.name = name
        self.line = line
        self.headerPin = headerPin
        self.keyCode = keyCode
        self.activeLow = activeLow
        self.bias = bias
        self.timing = timing
        self.actions = actions
    }

    /// The most clicks in a row this button distinguishes: 3 with a triple action, 2 with a double
    /// action, else 1 (its click then fires at once on release).
    public var maximumClicks: Int {
        if actions[.triple] != nil { return 3 }
        if actions[.double] != nil { return 2 }
        return 1
    }
}

/// Two buttons pressed together, held for a time, mapped to one action (for example `lock`).
public struct ChordSettings: Equatable, Sendable {
    /// The chord's name in the board file (`[chord lock]`).
    public var name: String
    /// The two buttons.
    public var buttons: [ButtonName]
    /// How long both must be held together before the chord fires (0: as soon as both are down).
    public var hold: Duration
    /// The action.
    public var action: ButtonAction

    /// Creates a chord.
    public init(name: String, buttons: [ButtonName], hold: Duration, action: ButtonAction) {
        self.name = name
        self.buttons = buttons
        self.hold = hold
        self.action = action
    }
}
