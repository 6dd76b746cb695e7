/// The Linux key codes a board file may name (from `linux/input-event-codes.h`), for the input source.
public enum KeyCodes {
    /// Names and codes of the media keys a `gpio-keys` overlay usually sends.
    public static let table: [(name: String, code: Int)] = [
        ("KEY_PLAYPAUSE", 164), ("KEY_NEXTSONG", 163), ("KEY_PREVIOUSSONG", 165),
        ("KEY_VOLUMEUP", 115), ("KEY_VOLUMEDOWN", 114), ("KEY_PLAY", 207), ("KEY_PAUSE", 119),
        ("KEY_ENTER", 28), ("KEY_SPACE", 57),
    ]

    /// The code of `text`: a number from 1 to 767, or a name from the table.
    public static func code(named text: String) -> Int? {
        if text.allSatisfy(\.isASCIIDigit), text.count <= 4, let value = Int(text), (1...767).contains(value) {
            return value
        }
        return table.first { $0.name == text.uppercased() }?.code
    }

    /// The names, for error messages.
    public static var names: String { table.map(\.name).joined(separator: ", ") }
}
