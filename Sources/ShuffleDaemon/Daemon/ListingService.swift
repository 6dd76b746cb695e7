import ShuffleCore

/// When the playing stick's listing (its songs' tags, for clients) is read into memory and let go: the pure
/// `ListingPolicy` decides, this carries it out on the library and tells clients when a listing came in.
final class ListingService: Service, @unchecked Sendable {
    // @unchecked: touched only on the loop's thread; the library's thread reaches it through `loop.post`.
    let name = "listings"
    private let loop: EventLoop
    private let library: any ApplianceLibrary
    private var policy = ListingPolicy()
    /// Tells clients what changed.
    private let notify: (Set<IdleSubsystem>) -> Void

    /// Creates the service.
    init(loop: EventLoop, library: any ApplianceLibrary, notify: @escaping (Set<IdleSubsystem>) -> Void) {
        self.loop = loop
        self.library = library
        self.notify = notify
    }

    func start() throws(DaemonError) {}

    /// `stick` started playing.
    func playbackStarted(stick: String, paused: Bool) { perform(policy.playbackStarted(stick: stick, paused: paused)) }

    /// The first samples of a track are out; `indexingKnown(stick)`: a known stick whose index run is under way.
    func trackStarted(indexingKnown: (String) -> Bool) { perform(policy.trackStarted(indexingKnown: indexingKnown)) }

    /// `stick`'s index run ended.
    func indexFinished(stick: String, changed: Bool, playing: Bool) {
        let inMemory = library.listing(volumeID: stick) != nil
        perform(policy.indexFinished(stick: stick, changed: changed, playing: playing, inMemory: inMemory))
    }

    /// `stick`'s index run failed.
    func indexFailed(stick: String) { perform(policy.indexFailed(stick: stick)) }

    /// The lengths of `stick`'s songs were refined.
    func lengthsRefined(stick: String, playing: Bool) { perform(policy.lengthsRefined(stick: stick, playing: playing)) }

    /// `stick` went away.
    func stickGone(_ stick: String) { perform(policy.stickGone(stick)) }

    private func perform(_ effects: [ListingPolicy.Effect]) {
        for effect in effects {
            switch effect {
            case .read(let stick):
                library.refreshListing(volumeID: stick) { [loop] in
                    loop.post { [weak self] in
                        guard let self else { return }
                        self.perform(self.policy.read(stick: stick))
                    }
                }
            case .forget(let stick): library.forgetListing(volumeID: stick)
            case .notifyClients: notify([.database, .playlist])
            }
        }
    }
}
