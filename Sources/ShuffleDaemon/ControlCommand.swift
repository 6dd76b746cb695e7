import Glibc
import ShuffleCore

/// `shufflebox ctl [--socket PATH] play|pause|toggle|next|previous|volume +N|-N|N`.
enum ControlCommand {
    /// Sends the action; exit 69 when no daemon answers, 1 when it refuses.
    static func run(_ options: ControlOptions) -> Int32 {
        let path = options.socket ?? DaemonPaths.clientSocket()
        do throws(ControlClient.Failure) {
            let client = try ControlClient(path: path)
            switch options.action {
            case .play: _ = try client.command("play")
            case .pause: _ = try client.command("pause 1")
            case .toggle: _ = try client.command("pause")
            case .next: _ = try client.command("next")
            case .previous: _ = try client.command("previous")
            case .setVolume(let step): _ = try client.command("shufflebox_setstep \(step)")
            case .changeVolume(let steps): _ = try client.command("shufflebox_volumestep \(steps)")
            case .sleep(let seconds): _ = try client.command("shufflebox_sleep \(seconds)")
            case .station(let choice):
                let argument =
                    switch choice {
                    case .next: "next"
                    case .previous: "previous"
                    case .named(let name): MPDRequest.quote(name)
                    }
                _ = try client.command("shufflebox_station \(argument)")
            case .story(let action): _ = try client.command("shufflebox_story \(action.rawValue)")
            }
            return ExitCode.success
        } catch {
            return report(error, path: path)
        }
    }

    /// Prints a failure for a person and returns the exit status.
    static func report(_ error: ControlClient.Failure, path: String) -> Int32 {
        switch error {
        case .notRunning:
            Terminal.error(
                "shufflebox: no shufflebox daemon is answering at \(path); start it with 'shufflebox run' or 'systemctl start shufflebox'"
            )
            return ExitCode.unavailable
        case .refused(let message):
            Terminal.error("shufflebox: the daemon refused: \(message)")
            return ExitCode.failure
        case .broken(let message):
            Terminal.error("shufflebox: \(message) (at \(path))")
            return ExitCode.failure
        }
    }
}
