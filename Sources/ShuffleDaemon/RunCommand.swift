import Glibc
import LibLinux
import LibPThread
import ShuffleCore

/// `shufflebox run`: the appliance daemon.
enum RunCommand {
    /// Loads the configuration, then runs the event loop on its own thread until SIGTERM/SIGINT.
    static func run(_ options: RunOptions) async -> Int32 {
        // A reload is checked as a start is: a configuration `run` would refuse is not taken on SIGHUP either.
        let load: @Sendable () throws(ConfigError) -> DaemonConfig = { () throws(ConfigError) -> DaemonConfig in
            try loadChecked(options).config
        }
        let config: DaemonConfig
        let places: RunPreflight.Places
        do throws(ConfigError) {
            (config, places) = try loadChecked(options)
        } catch {
            Terminal.error("shufflebox: \(error)")
            return ExitCode.dataError
        }
        if options.checkConfig {
            print("configuration OK: \(options.config ?? DaemonConfig.defaultPath)")
            return ExitCode.success
        }
        let log = Log(label: "daemon", minimum: config.logLevel) { line in Terminal.error(line) }
        let stateDirectory = places.stateDirectory
        do {
            try FileSystem.createFolders(stateDirectory)
        } catch {
            log.error("cannot create the state directory \(stateDirectory): \(error)")
            return ExitCode.cannotCreate
        }
        let socketPath = places.socket
        return await withCheckedContinuation { continuation in
            PThread.startDetached(name: "shufflebox-control") {
                continuation.resume(returning: runLoop(config, stateDirectory, socketPath, load, log))
            }
        }
    }

    /// Runs on the control thread: builds everything there (the appliance is confined to it).
    private static func runLoop(
        _ config: DaemonConfig, _ stateDirectory: String, _ socketPath: String,
        _ load: @escaping () throws(ConfigError) -> DaemonConfig, _ log: Log
    ) -> Int32 {
        do {
            let loop = try EventLoop()
            let parts = try ApplianceParts.make(config: config, stateDirectory: stateDirectory, loop: loop, log: log)
            let appliance = try Appliance(
                loop: loop, config: config, reloadConfig: load, library: parts.library, player: parts.player, log: log,
                stateDirectory: stateDirectory, socketPath: socketPath)
            try appliance.start()
            loop.run()
            log.debug("control loop ended")
            return ExitCode.success
        } catch let error as DaemonError {
            log.error(error.description)
            return ExitCode.failure
        } catch {
            log.error("cannot start: \(error)")
            return ExitCode.failure
        }
    }

    /// The most a configuration file may hold (the documented one is 3 KB).
    static let maxConfigSize = 1 << 20

    /// The bytes of the configuration file, or an error saying exactly what is wrong with it: never waits
    /// on a FIFO, never reads more than `maxConfigSize`.
    private static func readConfigFile(_ path: String) throws(ConfigError) -> [UInt8] {
        func fail(_ message: String) -> ConfigError { ConfigError(file: path, line: nil, message: message) }
        let kind: (kind: FileSystem.Kind, size: Int)
        do { kind = try FileSystem.kind(of: path) } catch { throw fail("cannot read the configuration file: \(error)") }
        switch kind.kind {
        case .regular: break
        case .folder: throw fail("is a folder; give the configuration file itself (e.g. \(DaemonConfig.defaultPath))")
        case .fifo, .socket, .device, .link, .other:
            throw fail("is not a regular file (a \(kind.kind)); the configuration must be a text file")
        }
        guard kind.size <= maxConfigSize else {
            throw fail("is \(kind.size) bytes; a configuration file holds at most \(maxConfigSize) bytes (1 MiB)")
        }
        do {
            return try FileSystem.contents(of: path, limit: maxConfigSize)
        } catch {
            throw fail("cannot read the configuration file: \(error)")
        }
    }

    /// The configuration with its flags applied, and the places it names, checked as `run` needs them.
    static func loadChecked(_ options: RunOptions) throws(ConfigError) -> (
        config: DaemonConfig, places: RunPreflight.Places
    ) {
        let path = options.config ?? DaemonConfig.defaultPath
        let (config, text) = try loadConfig(options)
        let places = try RunPreflight.check(
            config, file: path, text: text, overrides: options.overrides, keepFolders: !options.checkConfig)
        return (config, places)
    }

    /// Reads the file (the default one only when it exists) and applies the flags; also returns the file's text.
    static func loadConfig(_ options: RunOptions) throws(ConfigError) -> (DaemonConfig, String?) {
        let path = options.config ?? DaemonConfig.defaultPath
        guard FileSystem.exists(path) else {
            if options.config != nil {
                throw ConfigError(file: path, line: nil, message: "no such configuration file")
            }
            return (try ConfigParser.applyOverrides(options.overrides, to: DaemonConfig()), nil)
        }
        let data = try readConfigFile(path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError(file: path, line: nil, message: "the configuration file is not UTF-8 text")
        }
        return (try ConfigParser.parse(text, file: path, overrides: options.overrides), text)
    }
}
