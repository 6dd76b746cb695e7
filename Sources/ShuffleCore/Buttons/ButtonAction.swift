/// What a gesture asks the player to do, by the name used in board files and output.
public enum ButtonAction: String, CaseIterable, Sendable, Hashable {
    /// Toggle between playing and paused.
    case playPause = "play-pause"
    /// Skip to the next track of the shuffle.
    case next
    /// Go back a track, or restart the current one after its first seconds.
    case previous
    /// One volume step up, never past the cap.
    case volumeUp = "volume-up"
    /// One volume step down.
    case volumeDown = "volume-down"
    /// Seek forward a few seconds (sent repeatedly while a button is held).
    case seekForward = "seek-forward"
    /// Seek back a few seconds (sent repeatedly while a button is held).
    case seekBack = "seek-back"
    /// Lock or unlock the buttons (a chord, so that a child does not trigger it by accident).
    case lock
    /// Reserved: say what is playing (spoken feedback, later).
    case speak
    /// Start the sleep timer (`sleep-minutes`), or cancel it when it runs.
    case sleep
    /// Play the next station of the stick's `shufflebox.txt` (after the last: the whole stick again).
    case nextStation = "next-station"
    /// Play the previous station.
    case previousStation = "previous-station"
    /// Switch between the music and the stories: from the music, the book played last; from a book, the
    /// music (each keeps its place). Within the stories, `next-station` and `previous-station` choose the book.
    case stories
    /// The one-button board's way through the stories: the music, then each book in turn, then the music.
    case nextStory = "next-story"
    /// Start the book playing over from its first part (nothing while the music plays).
    case startOver = "start-over"
    /// Say goodbye, save and switch the box off (the power button; on a Raspberry Pi wired to GPIO3, the same
    /// button wakes the halted board). Not refused by the lock: a switch works whoever presses it.
    case powerOff = "power-off"
    /// Say "Battery low", save and switch off before the battery gives out (a battery board's low-battery
    /// signal, held as long as a long press). Not refused by the lock.
    case batteryLow = "battery-low"

    /// The names as a person reads them in an error message.
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
