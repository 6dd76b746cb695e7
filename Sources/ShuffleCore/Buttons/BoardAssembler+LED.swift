extension BoardAssembler {
    static let ledKeys: Set<String> = ["name", "active-low", "gpio", "pin"]

    /// The `[led]` section, if there is one: `name = ACT led0` (names under /sys/class/leds, first found
    /// wins), `active-low = yes|no`, and for an external LED `gpio`/`pin`, for the wiring table.
    func led() throws(BoardFileError) -> BoardLED? {
        guard let section = sections.first(where: { $0.kind == "led" }) else { return nil }
        try checkKeys(section, allowed: Self.ledKeys)
        guard let nameSetting = section.value("name") else {
            throw BoardFileError(
                file: file, line: section.line,
                problem: "[led] needs 'name = NAME' (the folder under /sys/class/leds, e.g. ACT)")
        }
        let names = nameSetting.value.split(separator: " ").map(String.init)
        for name in names where !LEDSettings.isValidName(name) {
            throw error(nameSetting, "bad LED name '\(name)' (a folder name under /sys/class/leds, e.g. ACT)")
        }
        var activeLow = false
        if let setting = section.value("active-low") {
            switch setting.value.lowercased() {
            case "yes", "true", "1": activeLow = true
            case "no", "false", "0": activeLow = false
            default: throw error(setting, "active-low must be yes or no, not '\(setting.value)'")
            }
        }
        return BoardLED(
            settings: LEDSettings(names: names, activeLow: activeLow),
            line: try number(section.value("gpio"), range: 0...1023),
            headerPin: try number(section.value("pin"), range: 1...40))
    }
}

/// A board's status light: which LED-class device, its polarity, and for an external LED where it is wired.
public struct BoardLED: Equatable, Sendable {
    /// The device names and polarity.
    public var settings: LEDSettings
    /// The GPIO line an external LED is wired to (its `gpio-led` overlay's `gpio=`), for people.
    public var line: Int?
    /// The header pin of an external LED, for people.
    public var headerPin: Int?

    /// Creates a board LED.
    public init(settings: LEDSettings, line: Int? = nil, headerPin: Int? = nil) {
        self.settings = settings
        self.line = line
        self.headerPin = headerPin
    }
}
