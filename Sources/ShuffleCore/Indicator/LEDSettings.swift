/// Which LED is the status light and how it is wired: the `[led]` section of a board file, or the
/// daemon's `led` setting.
public struct LEDSettings: Equatable, Sendable {
    /// The folder of the kernel's LED-class devices.
    public static let classDirectory = "/sys/class/leds"

    /// LED-class device names (`ACT`, `led0`) or absolute paths to such a device's folder, in order of
    /// preference: the first that exists is used (the Pi's activity LED is `ACT` on current kernels,
    /// `led0` on older ones).
    public var names: [String]
    /// Whether the kernel drives the LED inverted (see `LEDPlan`).
    public var activeLow: Bool

    /// Creates settings.
    public init(names: [String], activeLow: Bool = false) {
        self.names = names
        self.activeLow = activeLow
    }

    /// The device folders to try, in order.
    public var paths: [String] { names.map { $0.hasPrefix("/") ? $0 : "\(Self.classDirectory)/\($0)" } }

    /// The light the daemon drives: its `led` setting (a name, a path, or `off`) wins over the board's
    /// `[led]`; the polarity is the board's, since it belongs to the wiring. Nil: no status light.
    public static func resolve(configured: String?, board: LEDSettings?) -> LEDSettings? {
        guard let configured else { return board }
        guard configured != "off" else { return nil }
        return LEDSettings(names: [configured], activeLow: board?.activeLow ?? false)
    }

    /// Whether `name` can name an LED-class device or its folder: no spaces, no `..`, not empty.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(" ") && !name.contains("\t")
            && !name.split(separator: "/").contains("..")
    }
}
