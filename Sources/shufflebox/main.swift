// The `shufflebox` executable: parse the command line, hand over to ShuffleDaemon.
import ShuffleDaemon

let arguments = Array(CommandLine.arguments.dropFirst())
Shufflebox.serveAsHelper(arguments)  // `shufflebox measure-loudness`, the loudness scan's helper: never returns
Shufflebox.prepareProcess(arguments)  // first, while this is the only thread
Shufflebox.exit(Shufflebox.runToEnd(arguments))
