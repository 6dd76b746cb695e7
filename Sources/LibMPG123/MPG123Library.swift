internal import CMPG123

/// Facts about the libmpg123 this was built against.
public enum MPG123Library {
    /// The API version of the headers (47 for libmpg123 1.31).
    public static var apiVersion: Int { Int(shim_mpg123_api_version()) }
}
