// The `shufflebox` executable: parse the command line, hand over to ShuffleDaemon.
import ShuffleDaemon

let arguments = Array(CommandLine.arguments.dropFirst())
Shufflebox.prepareProcess(arguments)  // before the first await, while this is the only thread
Shufflebox.exit(await Shufflebox.main(arguments))
