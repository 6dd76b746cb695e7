import Foundation

/// A folder laid out like a kernel LED-class device (`/sys/class/leds/NAME`): the hardware edge of the
/// status light. `trigger` lists the triggers with the one in force in brackets, as the kernel's does;
/// the trigger attributes (`delay_on`, `delay_off`, `pattern`, `repeat`) exist from the start, since no
/// kernel is here to create them when a trigger is chosen. What the daemon writes stays in the files.
public struct LEDClassFolder: Sendable {
    /// The device folder.
    public let path: String

    /// Creates `parent/name` with `triggers` offered (the bracketed one in force) and `maxBrightness`.
    public init(
        in parent: String, name: String = "status",
        triggers: String = "[none] kbd-capslock timer oneshot heartbeat default-on pattern",
        maxBrightness: Int = 255, brightness: Int = 0
    ) throws {
        path = parent + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let files = [
            "trigger": triggers, "max_brightness": "\(maxBrightness)", "brightness": "\(brightness)",
            "delay_on": "500", "delay_off": "500", "pattern": "", "repeat": "-1",
        ]
        for (name, text) in files {
            try (text + "\n").write(toFile: path + "/" + name, atomically: false, encoding: .utf8)
        }
    }

    /// One made before (and moved to `path`).
    public init(existing path: String) { self.path = path }

    /// The text of an attribute without its trailing newline ("" when missing).
    public func value(_ attribute: String) -> String {
        let text = (try? String(contentsOfFile: path + "/" + attribute, encoding: .utf8)) ?? ""
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The trigger in force: the last one written, or the bracketed one of the list while none was written.
    public var trigger: String {
        let text = value("trigger")
        guard let open = text.firstIndex(of: "["), let close = text[open...].firstIndex(of: "]") else { return text }
        return String(text[text.index(after: open)..<close])
    }

    /// The attributes that tell the pattern apart, as one line: `trigger=timer delay_on=100 delay_off=100`.
    /// Only those of the trigger in force are listed (the others keep stale values, as no kernel removes them).
    public var shown: String {
        let trigger = self.trigger
        let attributes: [String]
        switch trigger {
        case "timer": attributes = ["delay_on", "delay_off"]
        case "pattern": attributes = ["repeat", "pattern"]
        default: attributes = ["brightness"]
        }
        return (["trigger=\(trigger)"] + attributes.map { "\($0)=\(value($0))" }).joined(separator: " ")
    }
}
