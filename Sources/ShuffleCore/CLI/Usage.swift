/// The usage text of `shufflebox` and each of its commands (snapshot-tested).
public enum Usage {
    /// The names of the commands, in the order the overview lists them.
    public static let commands = ["index", "search", "list", "play", "buttons", "say", "run", "status", "outputs", "ctl"]

    /// The overview printed by `shufflebox help` and on a usage error without a command.
    public static let overview = """
        usage: shufflebox COMMAND [OPTIONS]

        A shuffle player for a small board, a few buttons and a USB stick.

        commands:
          index DIR       bring the library index of DIR up to date
          search QUERY    find tracks by title, artist, album or path
          list            every file of the library with its status and tags
          play DIR        index DIR, then play it shuffled, resuming where it stopped
          buttons         print button gestures as they happen (the wiring check)
          say             speak a phrase through the box's voice (a speaker test)
          run             the appliance: plug-in libraries, buttons, control socket
          status          what the running player is doing
          outputs         the sound outputs it can play through, and which it uses
          ctl ACTION      tell the running player to play, pause, skip or change volume

        Run 'shufflebox help COMMAND' for the options of one command.
        """

    /// The usage of one command, or the overview for an unknown name.
    public static func text(for command: String?) -> String {
        switch command {
        case "index":
            return """
                usage: shufflebox index DIR [--db FILE] [--measure-loudness]

                Walks DIR and brings its index up to date: new, changed, moved and deleted files.
                  --db FILE      the library database (default: the state directory's library.db)
                  --measure-loudness  also measure the loudness (EBU R128) of every track without a
                                 ReplayGain tag now, as the player does in the background
                """
        case "search":
            return """
                usage: shufflebox search QUERY... [--db FILE] [--limit N] [--json]

                Finds tracks whose title, artist, album, album artist or path match every word;
                the last word may be the start of a word. Case and accents do not matter.
                  --db FILE      the library database
                  --limit N      at most N results (default 20)
                  --json         one JSON object per line
                """
        case "list":
            return """
                usage: shufflebox list [--db FILE] [--json]

                Prints every file of the library with its status (ok or unplayable) and tags.
                  --db FILE      the library database
                  --json         one JSON object per line
                """
        case "play":
            return """
                usage: shufflebox play DIR [--db FILE] [--device PCM] [--mixer CONTROL] [--seed N]
                                           [--volume V] [--max-volume V] [--shuffle MODE]
                                           [--replay-gain MODE] [--replay-gain-preamp DB]
                                           [--loudness-target LUFS] [--once]

                Indexes DIR, then plays it shuffled, resuming where the last run stopped.
                Keys on a terminal: space play/pause, n next, p previous, . and , seek 5 s, + and - volume, q quit.
                  --db FILE        the library database
                  --device PCM     the ALSA device (default: default)
                  --mixer CONTROL  set this hardware volume control (PCM, Digital, ...) instead of
                                   scaling the samples in software
                  --seed N         a fixed shuffle, for tests
                  --volume V       start volume in steps (0-20)
                  --max-volume V   a cap that nothing can exceed
                  --shuffle MODE   balanced (default: artists and albums kept apart), shuffle,
                                   albums (a random album in track order, then another), in-order
                  --replay-gain MODE  track (default), album or off: the tags' gain, else the
                                   loudness measured while playing, brings each track to the target
                  --replay-gain-preamp DB  added to every loudness gain (-15 to 15, default 0)
                  --loudness-target LUFS   the level tracks are brought to (default -18)
                  --once           play every track once, then exit
                """
        case "say":
            return """
                usage: shufflebox say TEXT... [--device PCM] [--voice LANG] [--volume V]

                Speaks TEXT with the box's own voice (espeak-ng, in shufflebox-speech): each part in the
                voice of its script (Japanese, Russian, Greek, ...), Latin script in LANG. The way to
                test a board's speaker.
                  --device PCM     the ALSA device (default: default)
                  --voice LANG     espeak-ng language for Latin script (default: en)
                  --volume V       level in steps, 0-20 (default: 14)
                """
        case "buttons":
            return """
                usage: shufflebox buttons [--board NAME | --config FILE] [--raw] [--json] [--script FILE]
                                          [--speak [--device PCM]]

                Prints each button gesture and the action it maps to, as it happens: the pin test
                to run after soldering. Ctrl-C ends it.
                  --board NAME     a board from board/ (rpi-zero2w, rpi3, rpi4, rpi5, qemu)
                  --config FILE    a board file
                  --raw            also print every press and release
                  --json           one JSON object per line
                  --script FILE    replay recorded edges ("MS BUTTON press|release") instead of hardware
                  --speak          also say each gesture aloud ("play, pin 11, click"): the check you
                                   can hear, with no screen
                  --device PCM     the ALSA device to speak on (default: default)
                """
        case "run":
            return """
                usage: shufflebox run [--config FILE] [--check-config] [--library-root DIR]... [--device PCM]
                                      [--output 'NAME card ID|driver NAME|pcm PCM ...']... [--mixer CONTROL] [--state-dir DIR] [--socket PATH]
                                      [--board NAME | --board-file FILE] [--volume N] [--max-volume N]
                                      [--volume-steps N] [--resume playing|paused] [--log-level LEVEL]
                                      [--tcp HOST:PORT] [--led NAME|PATH|off]
                                      [--connection-timeout SECONDS] [--card-root DIR]

                The appliance: watches the library roots for USB sticks, plays the newest one,
                answers buttons and the control socket. Flags win over the configuration file.
                  --config FILE    configuration (default /etc/shufflebox/shufflebox.conf)
                  --check-config   validate the configuration (and the board, state folder and socket
                                   it names) and exit: it passes exactly when run would start
                  --board NAME     a board of board/ (rpi4, rpi4/one-button, ...); --board-file FILE for
                                   a board file of your own
                """
        case "status":
            return """
                usage: shufflebox status [--socket PATH] [--json]

                Asks the running player what it is doing.
                """
        case "outputs":
            return """
                usage: shufflebox outputs [--socket PATH] [--json]

                Asks the running player which sound outputs it can play through (the `output` lines of
                its configuration, in order of preference), why each is or is not usable, and which one
                plays (marked *).
                """
        case "ctl":
            return """
                usage: shufflebox ctl [--socket PATH] play|pause|toggle|next|previous|volume +N|-N|N
                                      |sleep MINUTES|station NAME|next|previous|stories|next-story|start-over

                Tells the running player what to do. sleep MINUTES: then the music fades out (sleep-fade,
                30 s) and pauses; sleep 0 cancels it. station: plays a station of the stick's shufflebox.txt
                (the whole stick is the first, "All"), by name or the next or previous one; while a story
                plays, a book by name, or the next or previous book. stories: between the music and the
                stories (the story gesture); next-story: the music, then each book in turn; start-over: the
                book playing, from its beginning.
                """
        default:
            return overview
        }
    }
}
