import Glibc
import LibLinux
import LibPThread
import ShuffleCore

/// `shufflebox run`: the appliance daemon.
enum RunCommand {
    /// Loads the configuration, then runs the event loop on its own thread until SIGTERM/SIGINT.
    static func run(_ options: RunOptions) async -> Int32 {
        let load: @Sendable () throws(ConfigError) -> DaemonConfig = { () throws(ConfigError) -> DaemonConfig in
            try loadConfig(options)
        }
        let config: DaemonConfig
        do throws(ConfigError) {
            config = try load()
        } catch {
            Terminal.error("shufflebox: \(error)")
            return ExitCode.dataError
        }
        if options.checkConfig {
            print("configuration OK: \(options.config ?? DaemonConfig.defaultPath)")
            return ExitCode.success
        }
        let log = Log(label: "daemon", minimum: config.logLevel) { line in Terminal.error(line) }
        let stateDirectory = config.stateDirectory ?? DaemonPaths.stateDirectory()
        do {
            try FileSystem.createFolders(stateDirectory)
        } catch {
            log.error("cannot create the state directory \(stateDirectory): \(error)")
            return ExitCode.cannotCreate
        }
        let socketPath = config.socket ?? DaemonPaths.socket(stateDirectory: stateDirectory)
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
                loop: loop, config: config, reloadConfig: load, library: parts.library, player: parts.player, log: log)
            try appliance.start(socketPath: socketPath)
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

    /// Reads the file (the default one only when it exists) and applies the flags.
    static func loadConfig(_ options: RunOptions) throws(ConfigError) -> DaemonConfig {
        let path = options.config ?? DaemonConfig.defaultPath
        guard FileSystem.exists(path) else {
            if options.config != nil {
                throw ConfigError(file: path, line: nil, message: "no such configuration file")
            }
            return try ConfigParser.applyOverrides(options.overrides, to: DaemonConfig())
        }
        guard let data = try? FileSystem.contents(of: path) else {
            throw ConfigError(file: path, line: nil, message: "cannot read the configuration file (permissions?)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError(file: path, line: nil, message: "the configuration file is not UTF-8 text")
        }
        return try ConfigParser.parse(text, file: path, overrides: options.overrides)
    }
}
