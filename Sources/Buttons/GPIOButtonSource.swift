import LibGPIOD
import ShuffleCore

/// Buttons on GPIO lines through libgpiod: the chip found by label, one both-edge request per
/// button with the board's bias and active-low, the kernel's timestamps on every edge.
public final class GPIOButtonSource: ButtonSource {
    private let chip: GPIOChip
    private var lines: [Int32: (line: EdgeLine, button: ButtonName)] = [:]

    /// "GPIO pinctrl-bcm2711".
    public var name: String { "GPIO \(chip.label)" }
    /// One descriptor per requested line.
    public var fileDescriptors: [Int32] { lines.keys.sorted() }
    /// GPIO lines do not end.
    public var isFinished: Bool { false }

    private init(chip: GPIOChip) { self.chip = chip }

    /// Opens the board's chip and requests every button's line.
    ///
    /// Returns the source (nil if no line could be requested) and one error per line or chip that
    /// failed, each saying what to do: the lines that work keep working.
    public static func open(board: BoardConfig, consumer: String = "shufflebox") -> (
        GPIOButtonSource?, [ButtonSourceError]
    ) {
        guard let label = board.chip else {
            return (
                nil,
                [
                    ButtonSourceError(
                        source: "GPIO", problem: "the board file names no chip",
                        advice: "add 'chip = LABEL' under [board]")
                ]
            )
        }
        let chip: GPIOChip
        do {
            chip = try GPIOChip.find(labelOrName: label)
        } catch {
            return (nil, [chipError(label, error)])
        }
        let source = GPIOButtonSource(chip: chip)
        var errors: [ButtonSourceError] = []
        for button in board.buttons {
            guard let offset = button.line else { continue }
            do {
                let line = try chip.requestEdges(
                    offset: offset, consumer: "\(consumer) \(button.name.rawValue)", activeLow: button.activeLow,
                    bias: bias(button.bias))
                source.lines[line.fileDescriptor] = (line, button.name)
            } catch {
                errors.append(lineError(chip: chip.label, button: button, error))
            }
        }
        return (source.lines.isEmpty ? nil : source, errors)
    }

    /// The lines active now, read once after the request (a line that cannot be read counts as not active).
    public func activeAtOpen() -> [ButtonName] {
        lines.values.filter { (try? $0.line.isActive()) == true }.map(\.button).sorted()
    }

    /// Reads the edges pending on one line.
    public func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge] {
        guard let (line, button) = lines[descriptor] else { return [] }
        do {
            return try line.readEvents().map { ButtonEdge(button, $0.isRising ? .press : .release, at: $0.timestamp) }
        } catch {
            throw ButtonSourceError(
                source: "GPIO \(chip.label) line \(line.offset) (\(button.rawValue))", problem: error.reason,
                advice: "the line stopped reporting; restart shufflebox")
        }
    }

    static func bias(_ bias: LineBias) -> GPIOBias {
        switch bias {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .disabled: .disabled
        case .asIs: .asIs
        }
    }

    /// A chip refused or not found: both may pass with time at boot (udev's group, a driver still probing).
    static func chipError(_ label: String, _ error: GPIOError) -> ButtonSourceError {
        if error.isPermissionDenied {
            return ButtonSourceError(
                source: "GPIO \(error.context)", problem: "permission denied",
                advice: "Add the user to the gpio group (sudo adduser $USER gpio, then log in again) or run as root",
                transient: true)
        }
        return ButtonSourceError(
            source: "GPIO chip '\(label)'", problem: "not found (\(error.context))",
            advice: "Is this the right board file? 'gpiodetect' lists the chips and their labels", transient: true)
    }

    static func lineError(chip: String, button: ButtonSettings, _ error: GPIOError) -> ButtonSourceError {
        let offset = button.line ?? -1
        let pin = button.headerPin.map { ", header pin \($0)" } ?? ""
        let source = "GPIO \(chip) line \(offset) (\(button.name.rawValue)\(pin))"
        if error.isBusy {
            return ButtonSourceError(
                source: source, problem: "busy (\(error.context))",
                advice:
                    "Is another program using GPIO\(offset)? 'gpioinfo' shows the user; a dtoverlay for the same pin claims it too"
            )
        }
        if error.isPermissionDenied {
            return ButtonSourceError(
                source: source, problem: "permission denied",
                advice: "Add the user to the gpio group (sudo adduser $USER gpio) or run as root")
        }
        return ButtonSourceError(
            source: source, problem: error.description,
            advice: "Check the line number against the board's README (bias needs Linux 5.5 or later)")
    }
}
