/// An MPD protocol error, answered as `ACK [code@index] {command} message`.
public struct MPDError: Error, Equatable, Sendable {
    /// MPD's `ACK_ERROR_*` codes (MPD's src/protocol/Ack.hxx).
    public enum Code: Int, Sendable {
        /// `command_list_end` without a begin, or a list inside a list.
        case notList = 1
        /// Wrong arguments.
        case argument = 2
        /// Unknown command.
        case unknown = 5
        /// No such song or nothing to play.
        case noExist = 50
        /// The daemon failed (database, device).
        case system = 52
    }

    /// The code.
    public var code: Code
    /// The message for the client.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The response line: `ACK [code@listIndex] {command} message\n`.
    public func ackLine(listIndex: Int, command: String) -> String {
        // A newline in the message would end the line early and desynchronise the client.
        let flat = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        return "ACK [\(code.rawValue)@\(listIndex)] {\(command)} \(flat)\n"
    }
}
