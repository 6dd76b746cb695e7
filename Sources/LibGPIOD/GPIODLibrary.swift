internal import CGPIOD

/// Facts about the linked libgpiod.
public enum GPIODLibrary {
    /// The version of the linked library, for example "1.6.3". Wraps `gpiod_version_string`.
    public static var version: String { String(cString: gpiod_version_string()) }
}
