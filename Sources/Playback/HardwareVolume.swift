internal import Glibc
import LibALSA
import ShuffleCore

/// Volume through a sound card's own mixer control instead of scaling the samples.
///
/// The player's volume curve (`VolumeScale`: 2 dB steps, a cap) is unchanged; each step's gain is sent
/// to the control in hundredths of a dB, rounded towards quieter so the cap can never be exceeded. The
/// samples then pass through bit-exact. A DAC changes its own volume between samples without a click
/// (that is what the control is for), so no software ramp is added. When the control cannot be opened
/// the engine says so once and keeps software volume: music plays either way.
final class HardwareVolume {
    private let control: MixerControl
    private let log: Log

    /// Opens `control` on the card of the PCM `device`; nil (after a warning) when it cannot.
    init?(device: String, control name: String, log: Log) {
        let card = HardwareVolume.card(forPCM: device)
        do {
            control = try MixerControl(card: card, name: name)
        } catch {
            log.warning(
                "cannot use the hardware volume control '\(name)' of \(card): \(error); using software volume. "
                    + "`amixer -D \(card) scontrols` lists the controls")
            return nil
        }
        self.log = log
    }

    /// Sets the control to the level of a linear `gain` (0 mutes).
    func apply(gain: Double) {
        let centibels = gain > 0 ? Int((20 * log10(gain) * 100).rounded(.down)) : Int.min / 2
        do {
            try control.set(centibels: centibels, mute: gain <= 0)
        } catch {
            log.warning("cannot set the hardware volume control '\(control.name)': \(error)")
        }
    }

    /// The mixer (control) device that belongs to a PCM name: `hw:1,0` and `plughw:1,0` → `hw:1`,
    /// `hw:CARD=DAC,DEV=0` → `hw:CARD=DAC`; anything else (`default`, `dmix`, a plugin) → `default`.
    static func card(forPCM device: String) -> String {
        for prefix in ["plughw:", "hw:"] where device.hasPrefix(prefix) {
            let rest = device.dropFirst(prefix.count)
            let card = rest.split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
            if !card.isEmpty { return "hw:" + card }
        }
        return "default"
    }
}
