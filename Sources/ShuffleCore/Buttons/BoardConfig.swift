/// Where a board's buttons come from.
public enum ButtonSourceKind: String, CaseIterable, Sendable, Hashable {
    /// GPIO lines through libgpiod (the default).
    case gpio
    /// A Linux input device (`gpio-keys` overlay), read by key code.
    case input
}

/// A board file, parsed: the pin map, the gesture map and the chords.
public struct BoardConfig: Equatable, Sendable {
    /// The board's name (`rpi4`).
    public var name: String
    /// One line for a person: "Raspberry Pi 4 Model B, five buttons".
    public var description: String
    /// Where the buttons are read from.
    public var source: ButtonSourceKind
    /// The GPIO chip's label or name (`pinctrl-bcm2711`, `gpiochip0`), for the GPIO source.
    public var chip: String?
    /// Part of the input device's name (`gpio_keys`, `button@`), for the input source.
    public var inputDevice: String?
    /// The buttons, in file order.
    public var buttons: [ButtonSettings]
    /// The chords.
    public var chords: [ChordSettings]
    /// The status light, if the board names one (`[led]`).
    public var led: BoardLED?

    /// Creates a board.
    public init(
        name: String, description: String = "", source: ButtonSourceKind = .gpio, chip: String? = nil,
        inputDevice: String? = nil, buttons: [ButtonSettings], chords: [ChordSettings] = [], led: BoardLED? = nil
    ) {
        self.name = name
        self.description = description
        self.source = source
        self.chip = chip
        self.inputDevice = inputDevice
        self.buttons = buttons
        self.chords = chords
        self.led = led
    }

    /// The settings of `button`, if the board has it.
    public func settings(for button: ButtonName) -> ButtonSettings? { buttons.first { $0.name == button } }

    /// Every action a gesture on `button` can produce, chords included.
    public func allowedActions(for button: ButtonName) -> Set<ButtonAction> {
        var actions = Set(settings(for: button)?.actions.values.map { $0 } ?? [])
        for chord in chords where chord.buttons.contains(button) { actions.insert(chord.action) }
        return actions
    }
}
