// The `shufflebox` executable: parse the command line, hand over to ShuffleDaemon.
import ShuffleDaemon

Shufflebox.exit(await Shufflebox.main(Array(CommandLine.arguments.dropFirst())))
