/// Gives the sections of a board file their meaning: checks every name, number and duration and
/// builds the `BoardConfig`.
struct BoardAssembler {
    let file: String
    let sections: [Section]

    static let boardKeys: Set<String> = [
        "name", "description", "source", "chip", "input", "bias", "active-low",
        "debounce", "double-click", "long-press", "hold-delay", "repeat",
    ]
    static let buttonKeys: Set<String> = [
        "gpio", "pin", "key", "bias", "active-low", "debounce", "double-click", "long-press", "hold-delay", "repeat",
        "click", "double", "triple", "long", "hold",
    ]
    static let chordKeys: Set<String> = ["buttons", "hold", "action"]

    func assemble() throws(BoardFileError) -> BoardConfig {
        guard let board = sections.first(where: { $0.kind == "board" }) else {
            throw BoardFileError(file: file, line: nil, problem: "no [board] section")
        }
        try checkKeys(board, allowed: Self.boardKeys)
        let source: ButtonSourceKind
        if let setting = board.value("source") {
            guard let kind = ButtonSourceKind(rawValue: setting.value) else {
                throw error(setting, "unknown source '\(setting.value)' (sources are gpio, input)")
            }
            source = kind
        } else {
            source = .gpio
        }
        var config = BoardConfig(
            name: board.value("name")?.value ?? "", description: board.value("description")?.value ?? "",
            source: source, chip: board.value("chip")?.value, inputDevice: board.value("input")?.value, buttons: [])
        let defaults = try buttonDefaults(board)
        for section in sections where section.kind == "button" {
            config.buttons.append(try button(section, defaults: defaults))
        }
        guard !config.buttons.isEmpty else {
            throw BoardFileError(file: file, line: nil, problem: "no buttons: add a [button play] section")
        }
        try checkUnique(\.line, "GPIO line", key: "gpio", in: config)
        try checkUnique(\.headerPin, "header pin", key: "pin", in: config)
        try checkUnique(\.keyCode, "key code", key: "key", in: config)
        try checkSourceNeeds(config, board: board)
        for section in sections where section.kind == "chord" {
            config.chords.append(try chord(section, config: config))
        }
        config.led = try led()
        return config
    }

    // MARK: - Buttons

    func buttonDefaults(_ board: Section) throws(BoardFileError) -> ButtonSettings {
        var defaults = ButtonSettings(name: .play)
        try applyLineSettings(board, to: &defaults)
        return defaults
    }

    func button(_ section: Section, defaults: ButtonSettings) throws(BoardFileError) -> ButtonSettings {
        guard let name = section.name.flatMap(ButtonName.init(rawValue:)) else {
            throw BoardFileError(
                file: file, line: section.line,
                problem: "unknown button '\(section.name ?? "")' (buttons are \(ButtonName.list))")
        }
        try checkKeys(section, allowed: Self.buttonKeys)
        var settings = defaults
        settings.name = name
        settings.line = try number(section.value("gpio"), range: 0...1023)
        settings.headerPin = try number(section.value("pin"), range: 1...40)
        if let key = section.value("key") {
            guard let code = KeyCodes.code(named: key.value) else {
                throw error(key, "unknown key '\(key.value)' (a number, or one of \(KeyCodes.names))")
            }
            settings.keyCode = code
        }
        try applyLineSettings(section, to: &settings)
        for gesture in [Gesture.click, .double, .triple, .long, .hold] {
            guard let setting = section.value(gesture.rawValue) else { continue }
            guard let action = ButtonAction(rawValue: setting.value) else {
                throw error(setting, "unknown action '\(setting.value)' (actions are \(ButtonAction.list))")
            }
            settings.actions[gesture] = action
        }
        if let long = section.value("long"), section.value("hold") != nil {
            throw error(long, "\(name.rawValue) has both 'long' and 'hold'; a held button can do only one")
        }
        return settings
    }

    /// Bias, active-low and the timings: allowed in [board] (defaults) and in [button NAME].
    func applyLineSettings(_ section: Section, to settings: inout ButtonSettings) throws(BoardFileError) {
        if let bias = section.value("bias") {
            guard let value = LineBias(rawValue: bias.value) else {
                let names = LineBias.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(bias, "unknown bias '\(bias.value)' (biases are \(names))")
            }
            settings.bias = value
        }
        if let activeLow = section.value("active-low") {
            switch activeLow.value.lowercased() {
            case "yes", "true", "1": settings.activeLow = true
            case "no", "false", "0": settings.activeLow = false
            default: throw error(activeLow, "active-low must be yes or no, not '\(activeLow.value)'")
            }
        }
        let limits: [(String, WritableKeyPath<GestureTiming, Duration>, Duration, Duration)] = [
            ("debounce", \.debounce, .zero, .milliseconds(200)),
            ("double-click", \.doubleClick, .milliseconds(50), .seconds(2)),
            ("long-press", \.longPress, .milliseconds(100), .seconds(10)),
            ("hold-delay", \.holdDelay, .milliseconds(100), .seconds(10)),
            ("repeat", \.repeatInterval, .milliseconds(20), .seconds(5)),
        ]
        for (key, path, low, high) in limits {
            guard let setting = section.value(key) else { continue }
            guard let duration = DurationText.parse(setting.value) else {
                throw error(setting, "bad duration '\(setting.value)' for \(key) (write 20ms or 1.5s)")
            }
            guard duration >= low && duration <= high else {
                throw error(
                    setting,
                    "bad duration '\(setting.value)' for \(key): it must be between "
                        + "\(DurationText.format(low)) and \(DurationText.format(high))")
            }
            settings.timing[keyPath: path] = duration
        }
    }

    // MARK: - Chords

    func chord(_ section: Section, config: BoardConfig) throws(BoardFileError) -> ChordSettings {
        try checkKeys(section, allowed: Self.chordKeys)
        let name = section.name ?? ""
        guard let buttonsSetting = section.value("buttons") else {
            throw BoardFileError(file: file, line: section.line, problem: "[chord \(name)] needs 'buttons = A B'")
        }
        var buttons: [ButtonName] = []
        for word in buttonsSetting.value.split(separator: " ") {
            guard let button = ButtonName(rawValue: String(word)) else {
                throw error(buttonsSetting, "unknown button '\(word)' (buttons are \(ButtonName.list))")
            }
            guard config.settings(for: button) != nil else {
                throw error(buttonsSetting, "this board has no [button \(button.rawValue)] for the chord")
            }
            buttons.append(button)
        }
        guard buttons.count == 2, buttons[0] != buttons[1] else {
            throw error(buttonsSetting, "a chord is exactly two different buttons, not '\(buttonsSetting.value)'")
        }
        // A button may be in several chords (play + volume-down locks, play + previous starts over); one pair
        // of buttons makes one chord.
        for other in config.chords where Set(other.buttons) == Set(buttons) {
            throw error(buttonsSetting, "these two buttons are already [chord \(other.name)]")
        }
        guard let actionSetting = section.value("action") else {
            throw BoardFileError(file: file, line: section.line, problem: "[chord \(name)] needs 'action = ...'")
        }
        guard let action = ButtonAction(rawValue: actionSetting.value) else {
            throw error(actionSetting, "unknown action '\(actionSetting.value)' (actions are \(ButtonAction.list))")
        }
        var hold = Duration.zero
        if let holdSetting = section.value("hold") {
            guard let value = DurationText.parse(holdSetting.value), value <= .seconds(10) else {
                throw error(holdSetting, "bad duration '\(holdSetting.value)' for hold (write 2s; at most 10s)")
            }
            hold = value
        }
        return ChordSettings(name: name, buttons: buttons, hold: hold, action: action)
    }

    // MARK: - Checks

    func checkKeys(_ section: Section, allowed: Set<String>) throws(BoardFileError) {
        for setting in section.settings where !allowed.contains(setting.key) {
            let names = allowed.sorted().joined(separator: ", ")
            throw error(setting, "unknown setting '\(setting.key)' in \(section.title) (settings there are \(names))")
        }
    }

    func checkUnique(
        _ path: KeyPath<ButtonSettings, Int?>, _ what: String, key: String, in config: BoardConfig
    ) throws(BoardFileError) {
        var seen: [Int: ButtonName] = [:]
        for button in config.buttons {
            guard let value = button[keyPath: path] else { continue }
            if let first = seen[value] {
                let setting = buttonSection(button.name)?.value(key)
                throw BoardFileError(
                    file: file, line: setting?.line,
                    problem: "\(what) \(value) is used twice: by \(first.rawValue) and by \(button.name.rawValue)")
            }
            seen[value] = button.name
        }
    }

    func checkSourceNeeds(_ config: BoardConfig, board: Section) throws(BoardFileError) {
        switch config.source {
        case .gpio:
            guard config.chip != nil else {
                throw BoardFileError(file: file, line: board.line, problem: "[board] needs 'chip = LABEL' for GPIO")
            }
            for button in config.buttons where button.line == nil {
                throw BoardFileError(
                    file: file, line: buttonSection(button.name)?.line,
                    problem: "button \(button.name.rawValue) has no 'gpio = LINE'")
            }
        case .input:
            for button in config.buttons where button.keyCode == nil {
                throw BoardFileError(
                    file: file, line: buttonSection(button.name)?.line,
                    problem: "button \(button.name.rawValue) has no 'key = CODE' for the input source")
            }
        }
    }

    func buttonSection(_ name: ButtonName) -> Section? {
        sections.first { $0.kind == "button" && $0.name == name.rawValue }
    }

    func number(_ setting: Setting?, range: ClosedRange<Int>) throws(BoardFileError) -> Int? {
        guard let setting else { return nil }
        guard setting.value.allSatisfy(\.isASCIIDigit), setting.value.count <= 6, let value = Int(setting.value),
            range.contains(value)
        else {
            throw error(
                setting,
                "bad \(setting.key) '\(setting.value)' (a whole number from \(range.lowerBound) to \(range.upperBound))"
            )
        }
        return value
    }

    func error(_ setting: Setting, _ problem: String) -> BoardFileError {
        BoardFileError(file: file, line: setting.line, problem: problem)
    }
}
