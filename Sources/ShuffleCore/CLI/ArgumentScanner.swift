/// Walks the arguments of one subcommand: `--flag`, `--option VALUE`, `--option=VALUE`, and positionals.
///
/// Each command's parser asks for what it knows; whatever is left over is an error naming the option,
/// so a typo is never silently ignored.
public struct ArgumentScanner: Sendable {
    private var options: [(name: String, value: String?)] = []
    private var positionals: [String] = []
    private let command: String

    /// Splits `arguments` (everything after the subcommand name). `valued` names the options that take a value.
    public init(_ arguments: [String], command: String, valued: Set<String>) throws(UsageError) {
        self.command = command
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals && argument.hasPrefix("-") && argument.count > 1 && Int(argument) == nil {
                    throw UsageError("unknown option \(argument) for '\(command)'", command: command)
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valued.contains(name), value == nil {
                guard index < arguments.count else {
                    throw UsageError("option --\(name) needs a value", command: command)
                }
                value = arguments[index]
                index += 1
            }
            options.append((name, value))
        }
    }

    /// Removes and returns whether `--name` was given.
    public mutating func flag(_ name: String) throws(UsageError) -> Bool {
        guard let found = options.firstIndex(where: { $0.name == name }) else { return false }
        if options[found].value != nil {
            throw UsageError("option --\(name) takes no value", command: command)
        }
        options.remove(at: found)
        return true
    }

    /// Removes and returns the last value of `--name VALUE` (the last one wins, as in most tools).
    public mutating func value(_ name: String) -> String? {
        values(name).last
    }

    /// Removes and returns every value of a repeatable `--name VALUE`, in order.
    public mutating func values(_ name: String) -> [String] {
        var found: [String] = []
        options.removeAll { option in
            guard option.name == name, let value = option.value else { return false }
            found.append(value)
            return true
        }
        return found
    }

    /// Removes and returns an integer option, checking its range.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "option --\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                command: command
            )
        }
        return number
    }

    /// Removes and returns the positional arguments.
    public mutating func takePositionals() -> [String] {
        defer { positionals = [] }
        return positionals
    }

    /// Throws for anything not consumed: an unknown option or an unexpected argument.
    public func finish() throws(UsageError) {
        if let option = options.first {
            throw UsageError("unknown option --\(option.name) for '\(command)'", command: command)
        }
        if let extra = positionals.first {
            throw UsageError("unexpected argument '\(extra)' for '\(command)'", command: command)
        }
    }
}
