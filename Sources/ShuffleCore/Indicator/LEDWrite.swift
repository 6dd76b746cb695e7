/// One write to an attribute of a kernel LED-class device: `value` into `/sys/class/leds/NAME/attribute`.
public struct LEDWrite: Equatable, Sendable, CustomStringConvertible {
    /// The attribute file: `trigger`, `brightness`, `delay_on`, `delay_off`, `pattern`, `repeat`.
    public var attribute: String
    /// The text written (without the newline).
    public var value: String

    /// Creates a write.
    public init(_ attribute: String, _ value: String) {
        self.attribute = attribute
        self.value = value
    }

    /// `trigger=timer`.
    public var description: String { "\(attribute)=\(value)" }
}
