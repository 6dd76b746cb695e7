import ShuffleCore

/// One part of the daemon with a life of its own (the control socket, the buttons, the light, the sleep
/// timer…): it owns its state, its descriptors and its timers on the event loop, and the `ServiceGroup`
/// starts it in list order and stops it in reverse. Everything runs on the loop's thread.
protocol Service: AnyObject {
    /// Its name, for the log.
    var name: String { get }
    /// Starts it: opens what it needs, watches its descriptors, arms its timers.
    func start() throws(DaemonError)
    /// Stops it: lets go of what it opened and cancels its timers. Called only after `start()` succeeded.
    func stop()
}

extension Service {
    /// Nothing to let go of.
    func stop() {}
}

/// What a service's failure to start means for the daemon.
enum FailurePolicy: Sendable, Equatable {
    /// The daemon cannot run without it: the start stops, and the services already started are stopped.
    case required
    /// The box is still worth running without it (a light, a voice): the failure is logged and the rest start.
    case optional
}

/// Starts services in list order and stops them in reverse, on the event loop (never on Swift's global
/// executor, which would wake a paused box): the lifecycle of swift-service-lifecycle's `ServiceGroup`
/// without its tasks. Loop thread only.
final class ServiceGroup {
    private var entries: [(service: any Service, policy: FailurePolicy)] = []
    private var started: [any Service] = []
    private let log: Log

    /// Creates an empty group.
    init(log: Log) { self.log = log }

    /// Adds `service` at the end of the list.
    func add(_ service: any Service, _ policy: FailurePolicy = .required) {
        entries.append((service, policy))
    }

    /// The names of the services running, in the order they started.
    var running: [String] { started.map(\.name) }

    /// Starts every service in list order. A required one that fails stops those already started (in
    /// reverse) and its error is thrown; an optional one that fails is logged and left out.
    func start() throws(DaemonError) {
        for (service, policy) in entries {
            do throws(DaemonError) {
                try service.start()
                started.append(service)
            } catch {
                switch policy {
                case .required:
                    stop()
                    throw error
                case .optional:
                    log.warning("\(service.name): \(error); carrying on without it")
                }
            }
        }
    }

    /// Stops the services started, in reverse order.
    func stop() {
        while let service = started.popLast() { service.stop() }
    }
}
