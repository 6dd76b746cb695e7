/// What an LED-class device offers and shows when it is opened, from its `trigger`, `max_brightness` and
/// `brightness` attributes.
public struct LEDDescription: Equatable, Sendable {
    /// The triggers the kernel offers for it (`none`, `timer`, `pattern`, `mmc0`, ...).
    public var triggers: Set<String>
    /// The trigger in force, if the list marked one (`[mmc0]`).
    public var trigger: String?
    /// The brightness of a fully lit LED (1 for a GPIO LED, 255 for many others).
    public var maxBrightness: Int
    /// The brightness when opened.
    public var brightness: Int

    /// Creates a description.
    public init(triggers: Set<String>, trigger: String?, maxBrightness: Int, brightness: Int) {
        self.triggers = triggers
        self.trigger = trigger
        self.maxBrightness = maxBrightness
        self.brightness = brightness
    }

    /// Reads the attributes' text: `trigger` lists every trigger with the one in force in brackets
    /// (`none [mmc0] timer pattern`); a missing or unreadable `max_brightness` counts as 1.
    public init(triggerList: String, maxBrightness: String?, brightness: String?) {
        var triggers: Set<String> = []
        var current: String?
        for word in triggerList.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            if word.hasPrefix("[") && word.hasSuffix("]") && word.count > 2 {
                let name = String(word.dropFirst().dropLast())
                current = name
                triggers.insert(name)
            } else {
                triggers.insert(String(word))
            }
        }
        let number = { (text: String?) -> Int? in
            text.flatMap { Int($0.split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? "") }
        }
        self.init(
            triggers: triggers, trigger: current, maxBrightness: max(1, number(maxBrightness) ?? 1),
            brightness: max(0, number(brightness) ?? 0))
    }
}
