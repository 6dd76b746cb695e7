import ShuffleCore
import Testing

/// The outputs list: which device plays, by what each card is, as devices come, go and fail.
@Suite struct OutputMachineTests {
    // The Raspberry Pi list of the images, and the cards Debian's kernel gives a Pi 4 with an I2S amp.
    static let list: [OutputSpec] = [
        OutputSpec(name: "usb", drivers: ["USB-Audio"]),
        OutputSpec(name: "amp", cards: ["MAX98357A", "PCM5102A"]),
        OutputSpec(name: "jack", cards: ["Headphones"]),
        OutputSpec(name: "hdmi", cards: ["vc4hdmi*"], pcm: "hdmi:CARD={card},DEV=0", needsDisplay: true),
    ]
    static let hdmi0 = SoundCard(index: 0, id: "vc4hdmi0", driver: "vc4-hdmi", name: "vc4-hdmi-0")
    static let hdmi1 = SoundCard(index: 1, id: "vc4hdmi1", driver: "vc4-hdmi", name: "vc4-hdmi-1")
    static let jack = SoundCard(index: 2, id: "Headphones", driver: "bcm2835_headpho", name: "bcm2835 Headphones")
    static let amp = SoundCard(index: 3, id: "MAX98357A", driver: "MAX98357A", name: "MAX98357A")
    static let usb = SoundCard(index: 4, id: "Device", driver: "USB-Audio", name: "USB Audio Device")

    static func uses(_ effects: [OutputMachine.Effect]) -> [String] {
        effects.compactMap { if case .use(_, let pcm) = $0 { pcm } else { nil } }
    }

    @Test func theFirstPresentOutputOfTheListPlaysWhateverTheCardNumbers() {
        var machine = OutputMachine(outputs: Self.list)
        let effects = machine.start(cards: [Self.hdmi0, Self.hdmi1, Self.jack, Self.amp], display: false)
        #expect(Self.uses(effects) == ["plughw:CARD=MAX98357A,DEV=0"])
        #expect(machine.current == "amp")
        #expect(machine.statuses.map(\.state) == [.notPresent, .inUse, .ready, .noDisplay])
    }

    @Test(
        arguments: [
            // cards present, display, the output chosen (nil: none)
            ([OutputMachineTests.jack], false, "jack"),
            ([OutputMachineTests.hdmi0, OutputMachineTests.hdmi1, OutputMachineTests.jack], false, "jack"),
            ([OutputMachineTests.hdmi0], false, nil),
            ([OutputMachineTests.hdmi0], true, "hdmi"),
            ([OutputMachineTests.jack, OutputMachineTests.usb], false, "usb"),
            ([], false, nil),
        ] as [([SoundCard], Bool, String?)])
    func choosesByWhatIsThere(_ cards: [SoundCard], _ display: Bool, _ chosen: String?) {
        var machine = OutputMachine(outputs: Self.list)
        let effects = machine.start(cards: cards, display: display)
        #expect(machine.current == chosen)
        if chosen == nil {
            #expect(effects.contains { if case .noOutput = $0 { true } else { false } })
        }
    }

    @Test func aDeviceThatWillNotOpenIsSkippedAndTriedAgainOnlyWhenDevicesChange() {
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.hdmi0, Self.jack, Self.amp], display: false)
        let effects = machine.failed(pcm: "plughw:CARD=MAX98357A,DEV=0", reason: "busy", gone: false)
        #expect(Self.uses(effects) == ["plughw:CARD=Headphones,DEV=0"])
        #expect(!effects.contains(.pause))  // a refusal is no unplugging: the music goes on
        #expect(machine.statuses[1].state == .failed("busy"))
        // The jack fails too: nothing works, and the reason names each output.
        let none = machine.failed(pcm: "plughw:CARD=Headphones,DEV=0", reason: "no such device", gone: false)
        guard case .noOutput(let reason) = none.last else {
            Issue.record("expected noOutput, got \(none)")
            return
        }
        #expect(reason.contains("amp failed: busy") && reason.contains("jack failed: no such device"))
        #expect(reason.contains("usb not present") && reason.contains("hdmi no display attached"))
        // A card coming (here: the same cards again, as udev's change of mode) tries the skipped ones again.
        let again = machine.devicesChanged(cards: [Self.hdmi0, Self.jack, Self.amp], display: false)
        #expect(Self.uses(again) == ["plughw:CARD=MAX98357A,DEV=0"])
    }

    @Test func aBusyCardIsTriedAgainWhenItsOwnNodesChangeNotWhenAnotherCardComesOrGoes() {
        // usb, then a busy amp, then the jack that plays.
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.jack, Self.amp], display: false)
        _ = machine.failed(pcm: "plughw:CARD=MAX98357A,DEV=0", reason: "busy", gone: false)
        #expect(machine.current == "jack")
        // A card of no output of the list comes and goes: the music is not moved to try the busy amp.
        let other = SoundCard(index: 7, id: "Dummy", driver: "Dummy", name: "Dummy")
        #expect(machine.devicesChanged(cards: [Self.jack, Self.amp, other], display: false, touched: [7]).isEmpty)
        #expect(machine.devicesChanged(cards: [Self.jack, Self.amp], display: false, touched: [7]).isEmpty)
        #expect(machine.statuses[1].state == .failed("busy"))
        // The amp's own nodes change (udev handing them over, the program holding it gone): tried again.
        let again = machine.devicesChanged(cards: [Self.jack, Self.amp], display: false, touched: [3])
        #expect(Self.uses(again) == ["plughw:CARD=MAX98357A,DEV=0"])
    }

    @Test func aUSBDACPluggedInTakesOverWithoutPausingAndUnpluggedPausesAndHandsBack() {
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.jack, Self.amp], display: false)
        let plugged = machine.devicesChanged(cards: [Self.jack, Self.amp, Self.usb], display: false)
        #expect(Self.uses(plugged) == ["plughw:CARD=Device,DEV=0"])
        #expect(!plugged.contains(.pause))
        let unplugged = machine.devicesChanged(cards: [Self.jack, Self.amp], display: false)
        #expect(unplugged.contains(.pause))
        #expect(Self.uses(unplugged) == ["plughw:CARD=MAX98357A,DEV=0"])
        let pause = unplugged.firstIndex(of: .pause) ?? 99
        let use = unplugged.firstIndex { if case .use = $0 { true } else { false } } ?? -1
        #expect(pause < use, "paused before the next output opens: \(unplugged)")
    }

    @Test func aDeviceGoneWhilePlayingPausesThoughTheCardListHasNotChangedYet() {
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.jack, Self.usb], display: false)
        let effects = machine.failed(pcm: "plughw:CARD=Device,DEV=0", reason: "No such device", gone: true)
        #expect(effects.contains(.pause))
        #expect(Self.uses(effects) == ["plughw:CARD=Headphones,DEV=0"])
    }

    @Test func aReportAboutAnOutputNoLongerInUseIsIgnored() {
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.jack, Self.usb], display: false)
        _ = machine.devicesChanged(cards: [Self.jack], display: false)
        #expect(machine.failed(pcm: "plughw:CARD=Device,DEV=0", reason: "late", gone: true).isEmpty)
        #expect(machine.current == "jack")
    }

    @Test func theDeviceAloneIsOneOutputThatIsAlwaysThere() {
        var config = DaemonConfig()
        config.device = "hw:1,0"
        var machine = OutputMachine(outputs: config.outputList)
        #expect(Self.uses(machine.start(cards: [], display: false)) == ["hw:1,0"])
        #expect(machine.devicesChanged(cards: [Self.usb], display: false).isEmpty)
    }

    @Test func statusLinesNameTheCardItsNumberAndThePCM() {
        var machine = OutputMachine(outputs: Self.list)
        _ = machine.start(cards: [Self.hdmi0, Self.jack], display: false)
        #expect(
            machine.statuses.map(\.line) == [
                "  usb       driver USB-Audio: not present",
                "  amp       card MAX98357A or PCM5102A: not present",
                "* jack      bcm2835_headpho card 2 [Headphones] (plughw:CARD=Headphones,DEV=0): in use",
                "  hdmi      vc4-hdmi card 0 [vc4hdmi0] (hdmi:CARD=vc4hdmi0,DEV=0): no display attached",
            ])
    }
}

@Suite struct OutputLineTests {
    @Test func parsesNamesCardsDriversPCMAndDisplay() throws {
        let spec = try OutputSpec.parse("hdmi card vc4hdmi* card HDMI driver vc4-hdmi pcm hdmi:CARD={card} display")
            .get()
        #expect(spec.cards == ["vc4hdmi*", "HDMI"] && spec.drivers == ["vc4-hdmi"])
        #expect(spec.pcm == "hdmi:CARD={card}" && spec.needsDisplay)
        #expect(try OutputSpec.parse("speaker pcm default").get().isPlainPCM)
    }

    @Test(arguments: ["", "usb", "usb card", "usb colour blue", "a/b card X", "x pcm plughw:CARD={card}"])
    func refusesLinesThatMatchNothingOrAreMalformed(_ line: String) {
        #expect(throws: OutputLineError.self) { try OutputSpec.parse(line).get() }
    }

    @Test func theConfigurationKeepsTheOrderAndRefusesATwiceNamedOutput() throws {
        let config = try ConfigParser.parse(
            "output = usb driver USB-Audio\noutput = jack card Headphones\n", file: "/etc/s.conf")
        #expect(config.outputList.map(\.name) == ["usb", "jack"])
        #expect(throws: ConfigError.self) {
            try ConfigParser.parse("output = usb driver USB-Audio\noutput = usb card X\n", file: "/etc/s.conf")
        }
        // A --device flag wins over the file's list (the command line names the device to play through).
        let flagged = try ConfigParser.parse(
            "output = usb driver USB-Audio\n", file: "/etc/s.conf",
            overrides: [ConfigOverride(key: "device", value: "hw:0")])
        #expect(flagged.outputList == [OutputSpec(name: "default", pcm: "hw:0")])
    }

    @Test func globsMatchWholeNames() {
        #expect(Glob.matches("vc4hdmi*", "vc4hdmi1") && Glob.matches("*", "") && Glob.matches("a?c", "abc"))
        #expect(!Glob.matches("vc4hdmi", "vc4hdmi1") && !Glob.matches("a?c", "ac"))
    }
}

@Suite struct SoundCardTests {
    @Test func readsProcAsoundCardsAsTheKernelWritesIt() {
        let text = """
             0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                                  vc4-hdmi-0
             1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                                  bcm2835 Headphones
            10 [Device         ]: USB-Audio - USB Audio Device
                                  C-Media Electronics Inc. USB Audio Device at usb-0000:01:00.0-1.3, full speed

            """
        #expect(
            SoundCard.parse(procCards: text) == [
                SoundCard(index: 0, id: "vc4hdmi0", driver: "vc4-hdmi", name: "vc4-hdmi-0"),
                SoundCard(index: 1, id: "Headphones", driver: "bcm2835_headpho", name: "bcm2835 Headphones"),
                SoundCard(index: 10, id: "Device", driver: "USB-Audio", name: "USB Audio Device"),
            ])
        #expect(SoundCard.parse(procCards: "--- no soundcards ---\n").isEmpty)
    }
}
