import Foundation
import ShuffleCore

/// The live half of `shufflebox buttons`: real sources, a poll loop on its own thread, Ctrl-C to end.
enum ButtonsLiveCheck {
    static func run(board: BoardConfig, options: ButtonsOptions) async -> Int32 {
        Terminal.error("shufflebox buttons: live sources are not built yet; use --script FILE")
        return ExitCode.unavailable
    }
}
