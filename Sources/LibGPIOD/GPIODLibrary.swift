internal import CGPIOD

/// Facts about the linked libgpiod.
public enum GPIODLibrary {
    /// The version of the linked library, for example "1.6.3" or "2.2.1". Wraps `gpiod_version_string` (1.6)
    /// or `gpiod_api_version` (2.x).
    public static var version: String { String(cString: shim_gpiod_version()) }

    /// The libgpiod API this was built against: 1 for 1.6, 2 for 2.x (chosen at build time by the headers).
    public static var apiGeneration: Int { Int(shim_gpiod_api()) }
}
