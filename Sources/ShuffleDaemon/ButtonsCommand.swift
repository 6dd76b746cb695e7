import Glibc
import LibLinux
import ShuffleCore

/// `shufflebox buttons`: the wiring check. Prints each gesture and its action as it happens.
enum ButtonsCommand {
    /// Runs the check and returns the exit status.
    static func run(_ options: ButtonsOptions) async -> Int32 {
        let board: BoardConfig
        do {
            board = try BoardLocator.load(board: options.board, config: options.config)
        } catch {
            Terminal.error("shufflebox buttons: \(error.description)")
            return ExitCode.dataError
        }
        if let script = options.script {
            return runScript(script, board: board, options: options)
        }
        return await ButtonsLiveCheck.run(board: board, options: options)
    }

    /// Replays a script of edges through the recogniser and prints what it recognised.
    static func runScript(_ path: String, board: BoardConfig, options: ButtonsOptions) -> Int32 {
        guard let data = try? FileSystem.contents(of: path) else {
            Terminal.error("shufflebox buttons: cannot read the script \(path): check that it exists and is readable")
            return ExitCode.failure
        }
        let edges: [ButtonEdge]
        do {
            edges = try ButtonScript.parse(String(decoding: data, as: UTF8.self), file: path, board: board)
        } catch {
            Terminal.error("shufflebox buttons: \(error.description)")
            return ExitCode.dataError
        }
        let outcome = ButtonReplay.run(edges, board: board)
        for button in outcome.releasedAtEnd {
            Terminal.error("shufflebox buttons: the script ends with \(button.rawValue) pressed; releasing it there")
        }
        let report = ButtonReport(json: options.json)
        let voice = options.speak ? GestureVoice(board: board, device: options.device) : nil
        if options.speak && voice == nil { return ExitCode.unavailable }
        var out = ""
        for item in outcome.items {
            switch item {
            case .edge(let edge) where options.raw: out += report.line(for: edge) + "\n"
            case .edge: break
            case .gesture(let event):
                out += report.line(for: event) + "\n"
                if let voice {
                    Terminal.write(out)
                    out = ""
                    voice.sayAndWait(event)
                }
            }
        }
        Terminal.write(out)
        return ExitCode.success
    }
}
