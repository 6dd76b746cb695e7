import ShuffleCore
import Testing

/// The status light's decisions: which pattern each state shows with the triggers a kernel offers, and the
/// sysfs writes that show it.
@Suite struct LightChoiceTests {
    static let all: Set<String> = ["none", "timer", "pattern", "default-on", "mmc0"]
    static let timerOnly: Set<String> = ["none", "timer", "mmc0"]
    static let bare: Set<String> = ["none", "mmc0"]

    static let twoBlinks = LightPattern.sequence([.lit(150), .dark(250), .lit(150), .dark(1_450)], once: false)
    static let threeBlinks = LightPattern.sequence(
        [.lit(150), .dark(250), .lit(150), .dark(250), .lit(150), .dark(1_050)], once: false)

    @Test(arguments: [
        (DaemonState.playing, all, LightPattern.on),
        (.paused, all, .blink(onMs: 1_000, offMs: 1_000)),
        (.indexing, all, .blink(onMs: 100, offMs: 100)),
        (.noLibrary, all, twoBlinks),
        (.error("no device"), all, threeBlinks),
        (.playing, timerOnly, .on),
        (.paused, timerOnly, .blink(onMs: 1_000, offMs: 1_000)),
        (.indexing, timerOnly, .blink(onMs: 100, offMs: 100)),
        (.noLibrary, timerOnly, .blink(onMs: 150, offMs: 1_850)),
        (.error("no device"), timerOnly, .blink(onMs: 150, offMs: 350)),
        (.playing, bare, .on),
        (.paused, bare, .off),
        (.indexing, bare, .off),
        (.noLibrary, bare, .off),
        (.error("x"), bare, .off),
    ])
    func eachStateHasItsPattern(_ state: DaemonState, _ triggers: Set<String>, _ expected: LightPattern) {
        #expect(LightChoice.pattern(for: state, triggers: triggers) == expected)
    }

    @Test func theSequencesLastTwoSecondsAndBlinkShort() {
        for pattern in [Self.twoBlinks, Self.threeBlinks] {
            guard case .sequence(let steps, _) = pattern else { continue }
            #expect(steps.map(\.milliseconds).reduce(0, +) == 2_000)
            #expect(steps.filter(\.lit).allSatisfy { $0.milliseconds == 150 })
        }
    }

    @Test func statesLookDifferentWhateverTheTriggers() {
        let states: [DaemonState] = [.playing, .paused, .indexing, .noLibrary, .error("x")]
        for triggers in [Self.all, Self.timerOnly] {
            let patterns = states.map { LightChoice.pattern(for: $0, triggers: triggers) }
            #expect(Set(patterns.map { "\($0)" }).count == states.count, "\(triggers.sorted())")
        }
    }

    @Test func aRefusedPressFlashesOnceThenTheStateComesBack() {
        let withPattern = LightChoice.refusedPress(triggers: Self.all)
        #expect(withPattern.pattern == .sequence([.dark(100), .lit(250), .dark(100)], once: true))
        #expect(withPattern.restoreAfterMs == 450)
        let withTimer = LightChoice.refusedPress(triggers: Self.timerOnly)
        #expect(withTimer.pattern == .blink(onMs: 250, offMs: 100))
        #expect(withTimer.restoreAfterMs == 350)
        #expect(LightChoice.refusedPress(triggers: Self.bare).pattern == .off)
    }

    // MARK: - Writes

    @Test func writesChooseTheTriggerFirstAndSkipItWhenAlreadyInForce() {
        let blink = LightPattern.blink(onMs: 100, offMs: 100)
        #expect(
            LEDPlan.writes(for: blink, activeLow: false, maxBrightness: 255, currentTrigger: "mmc0").map(\.description)
                == ["trigger=timer", "delay_on=100", "delay_off=100"])
        #expect(
            LEDPlan.writes(for: blink, activeLow: false, maxBrightness: 255, currentTrigger: "timer").map(\.description)
                == ["delay_on=100", "delay_off=100"])
        #expect(
            LEDPlan.writes(for: .on, activeLow: false, maxBrightness: 1, currentTrigger: "timer").map(\.description)
                == ["trigger=none", "brightness=1"])
        #expect(
            LEDPlan.writes(for: .off, activeLow: false, maxBrightness: 1, currentTrigger: "none").map(\.description)
                == ["brightness=0"])
        #expect(
            LEDPlan.writes(for: Self.twoBlinks, activeLow: false, maxBrightness: 255, currentTrigger: nil)
                .map(\.description)
                == ["trigger=pattern", "repeat=-1", "pattern=255 150 255 0 0 250 0 0 255 150 255 0 0 1450 0 0"])
    }

    @Test func anActiveLowLedIsWrittenTheOtherWayRound() {
        #expect(
            LEDPlan.writes(for: .on, activeLow: true, maxBrightness: 1, currentTrigger: "none").map(\.description)
                == ["brightness=0"])
        #expect(
            LEDPlan.writes(for: .off, activeLow: true, maxBrightness: 1, currentTrigger: "none").map(\.description)
                == ["brightness=1"])
        #expect(
            LEDPlan.writes(
                for: .blink(onMs: 150, offMs: 1_850), activeLow: true, maxBrightness: 1, currentTrigger: "timer"
            ).map(\.description) == ["delay_on=1850", "delay_off=150"])
        #expect(
            LEDPlan.writes(
                for: .sequence([.lit(150), .dark(50)], once: true), activeLow: true, maxBrightness: 1,
                currentTrigger: "pattern"
            ).map(\.description) == ["repeat=1", "pattern=0 150 0 0 1 50 1 0"])
    }

    @Test func theLedIsHandedBackAsItWasFound() {
        let act = LEDDescription(triggerList: "none [mmc0] timer\n", maxBrightness: "1\n", brightness: "0\n")
        #expect(act.trigger == "mmc0" && act.triggers == ["none", "mmc0", "timer"] && act.maxBrightness == 1)
        #expect(LEDPlan.restore(act).map(\.description) == ["trigger=mmc0"])
        let plain = LEDDescription(triggerList: "[none] timer", maxBrightness: nil, brightness: "1")
        #expect(LEDPlan.restore(plain).map(\.description) == ["trigger=none", "brightness=1"])
    }

    // MARK: - Which LED

    @Test func theConfiguredLedWinsOverTheBoardsAndOffMeansNone() {
        let board = LEDSettings(names: ["ACT", "led0"], activeLow: true)
        #expect(LEDSettings.resolve(configured: nil, board: board) == board)
        #expect(LEDSettings.resolve(configured: "off", board: board) == nil)
        #expect(LEDSettings.resolve(configured: nil, board: nil) == nil)
        let chosen = LEDSettings.resolve(configured: "/tmp/leds/x", board: board)
        #expect(chosen == LEDSettings(names: ["/tmp/leds/x"], activeLow: true))
        #expect(board.paths == ["/sys/class/leds/ACT", "/sys/class/leds/led0"])
        #expect(chosen?.paths == ["/tmp/leds/x"])
    }
}
