import Glibc
import LibLinux
import ShuffleCore

/// The control socket: a Unix socket (mode 0660) and optionally TCP, speaking the MPD protocol through
/// `MPDSession`. Everything runs on the event loop's thread: non-blocking accept, read and write.
///
/// TCP and the Unix socket have client limits of their own, so however many phones and laptops are
/// connected over the network, the owner's `shufflebox status`/`ctl` always gets in. A client that sends
/// nothing for `timeout` is dropped (MPD's `connection_timeout`), never while it waits in `idle`; one timer,
/// armed for the earliest such deadline only while there are clients.
final class ControlServer: @unchecked Sendable {
    // @unchecked: every member is touched only on the event loop's thread; a search answered elsewhere
    // comes back through `EventLoop.post`.
    /// At most this many TCP clients at once; more are accepted and closed at once.
    static let maxTCPClients = 64
    /// At most this many Unix-socket clients at once (the owner's tools and local clients).
    static let maxUnixClients = 64
    /// A client that does not read its answers is dropped when a new answer finds more than this much of
    /// the earlier ones still unread (one large answer, a 100,000-track `playlistinfo`, is fine).
    static let maxQueuedOutput = 1 << 20

    private final class Client {
        let fd: Int32
        let tcp: Bool
        var lines = MPDLineBuffer()
        var session = MPDSession()
        var output: [UInt8] = []
        /// How much of `output` has been written (compacted once it is most of it).
        var written = 0
        var closing = false
        /// When it last sent something (monotonic ns).
        var lastHeard: Duration
        /// Which client this is since the daemon started (a descriptor is used again by later clients).
        let serial: UInt64
        /// Whether a search of its is being answered elsewhere: its next requests wait in `held`.
        var waiting = false
        var held: [MPDLineBuffer.Chunk] = []
        /// A long song list being sent as the client reads it (`waiting` meanwhile), and its part being made.
        var stream: MPDSongStream?
        var part = MPDWriter()
        init(fd: Int32, tcp: Bool, now: Duration, serial: UInt64) {
            self.fd = fd
            self.serial = serial
            self.tcp = tcp
            lastHeard = now
        }
    }

    private let loop: EventLoop
    private let backend: any MPDBackend & AnyObject
    private let log: Log
    /// Nanoseconds of silence after which a client is dropped (0: never).
    private let timeout: Duration
    private var listeners: [Int32] = []
    private var tcpListener: Int32 = -1
    private var clients: [Int32: Client] = [:]
    /// Clients accepted so far.
    private var accepted: UInt64 = 0
    /// Changes announced while a request is being answered, delivered right after it: a command that
    /// changes the volume notifies the very session that is in the middle of `receive`.
    private var deferred: Set<IdleSubsystem> = []
    private var dispatching = false
    /// The Unix socket path (unlinked on close).
    let path: String

    /// Binds the Unix socket at `path` (and TCP at `tcp`) and starts accepting.
    init(
        loop: EventLoop, path: String, tcp: TCPAddress?, timeoutSeconds: Int, log: Log,
        backend: any MPDBackend & AnyObject
    ) throws(DaemonError) {
        self.loop = loop
        self.backend = backend
        self.path = path
        self.log = log
        timeout = .seconds(max(0, timeoutSeconds))
        let unix = try Self.listenUnix(path)
        listeners.append(unix)
        if let tcp {
            do throws(DaemonError) {
                tcpListener = try Self.listenTCP(tcp)
                listeners.append(tcpListener)
            } catch {
                close(unix)
                unlink(path)
                throw error
            }
        }
        for fd in listeners {
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in self.accept(on: fd) }
        }
    }

    /// Tells every client waiting in `idle` that `subsystems` changed.
    func notify(_ subsystems: Set<IdleSubsystem>) {
        if dispatching {
            deferred.formUnion(subsystems)
            return
        }
        var woke = false
        for client in clients.values {
            guard let reply = client.session.notify(subsystems) else { continue }
            // Its silence is counted from the end of its idle, as MPD does.
            client.lastHeard = loop.now
            woke = true
            send(reply, to: client)
        }
        if woke && !loop.hasTimer(.clients) { armTimeout() }
    }

    /// Closes every socket and removes the Unix socket file.
    func shutdown() {
        for client in clients.values { drop(client) }
        for fd in listeners {
            loop.unwatch(fd)
            close(fd)
        }
        listeners.removeAll()
        unlink(path)
    }

    // MARK: - Clients

    private func accept(on listener: Int32) {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }  // EAGAIN: no more pending; other errors: try next round
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let tcp = listener == tcpListener
            let limit = tcp ? Self.maxTCPClients : Self.maxUnixClients
            guard clients.values.filter({ $0.tcp == tcp }).count < limit else {
                log.info(
                    "refused a \(tcp ? "TCP" : "Unix-socket") client: \(limit) are connected, the most there may be")
                close(fd)
                continue
            }
            accepted += 1
            let client = Client(fd: fd, tcp: tcp, now: loop.now, serial: accepted)
            clients[fd] = client
            if !loop.hasTimer(.clients) { armTimeout() }
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self] revents in self.service(client, revents) }
            send(MPDSession.Reply(MPDSession.greeting), to: client)
        }
    }

    private func service(_ client: Client, _ revents: Int16) {
        if revents & Int16(POLLOUT) != 0 {
            flush(client)
            if client.stream != nil { stream(to: client) }
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, clients[client.fd] != nil, !client.closing else {
            return
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(client.fd, &buffer, buffer.count)
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            drop(client)
            return
        }
        client.lastHeard = loop.now
        for chunk in client.lines.append(buffer.prefix(count)) {
            if client.waiting {
                guard client.held.count < MPDSession.maxListLength else {
                    log.info("dropped a \(client.tcp ? "TCP" : "Unix-socket") client that sent too much while waiting")
                    drop(client)
                    return
                }
                client.held.append(chunk)
                continue
            }
            if !answer(chunk, from: client) { break }
        }
        announceDeferred()
        if !loop.hasTimer(.clients) { armTimeout() }
    }

    /// Answers one request; false when the client is closing.
    private func answer(_ chunk: MPDLineBuffer.Chunk, from client: Client) -> Bool {
        var backend = self.backend
        dispatching = true
        let reply = client.session.receive(chunk, backend: &backend)
        dispatching = false
        return dispatch(reply, to: client)
    }

    /// Sends a reply and starts the search or picture it carries; false when the client is closing.
    private func dispatch(_ reply: MPDSession.Reply, to client: Client) -> Bool {
        send(reply, to: client)
        if let stream = reply.stream, !client.closing {
            client.waiting = true
            client.stream = stream
            self.stream(to: client)
        } else if let search = reply.search, !client.closing {
            // The index answers on another thread; the loop goes on, and this client's next requests wait.
            // (The server is kept until the answer is in: a few seconds at most, and after `shutdown` it finds
            // its client gone.)
            client.waiting = true
            let fd = client.fd
            let serial = client.serial
            backend.searchInBackground(search.constraints, exact: search.exact) { [self] result in
                let answer = Array(search.answer(result).utf8)
                let succeeded = (try? result.get()) != nil
                loop.post { self.answered(answer, to: fd, serial, continuing: search, succeeded: succeeded) }
            }
        } else if let picture = reply.picture, !client.closing {
            // Read from the stick on the pictures' own thread, as a search is answered on the index's.
            client.waiting = true
            let fd = client.fd
            let serial = client.serial
            backend.picture(picture) { [self] result in
                let answer = picture.answer(result)
                loop.post { self.answered(answer, to: fd, serial) }
            }
        }
        return !(reply.close || client.closing)
    }

    /// Sends an answer made off the loop (a search, a picture), then the requests the client sent meanwhile.
    /// A search inside a command list (`continuing`) then runs the rest of its list.
    private func answered(
        _ bytes: [UInt8], to fd: Int32, _ serial: UInt64, continuing search: PendingSearch? = nil,
        succeeded: Bool = false
    ) {
        guard let client = clients[fd], client.serial == serial else { return }
        client.waiting = false
        client.lastHeard = loop.now
        send(bytes: bytes, to: client)
        if let search, search.list != nil, !client.closing {
            var backend = self.backend
            dispatching = true
            let reply = client.session.continueList(after: search, succeeded: succeeded, backend: &backend)
            dispatching = false
            _ = dispatch(reply, to: client)
        }
        answerHeld(client)
    }

    /// Answers what a client sent while it waited, until it waits again.
    private func answerHeld(_ client: Client) {
        while !client.waiting, !client.closing, !client.held.isEmpty {
            if !answer(client.held.removeFirst(), from: client) { break }
        }
        announceDeferred()
        if !loop.hasTimer(.clients) { armTimeout() }
    }

    /// How much of a streamed song list is made at a time: about a socket buffer's worth, a millisecond of
    /// work, in one buffer used again for every part (fresh pages cost a fault each, the most of the time a
    /// whole answer made at once took).
    static let streamPart = 192 << 10

    /// Sends the next part of the client's song list once what it has not read yet is written; one part per
    /// round of the loop (the socket's room is asked for again), so other clients are answered between them.
    /// At its end: `OK`, and the requests it sent meanwhile.
    private func stream(to client: Client) {
        guard var stream = client.stream, clients[client.fd] != nil, !client.closing,
            client.written == client.output.count
        else { return }
        client.part.removeAll()
        stream.write(into: &client.part, upTo: Self.streamPart)
        // A client that reads is there: its silence counts from the list's end, not from asking for it.
        client.lastHeard = loop.now
        if stream.isFinished {
            client.stream = nil
            client.waiting = false
            client.part.append("OK\n")
            sendPart(of: client)
            client.part = MPDWriter()
            answerHeld(client)
        } else {
            client.stream = stream
            sendPart(of: client)
            // Written whole: come back when the loop next finds the socket writable, after the others.
            if client.written == client.output.count { loop.setEvents(client.fd, Int16(POLLIN | POLLOUT)) }
        }
    }

    /// Sends the part just made straight from its buffer (nothing else is waiting to be written: `stream`
    /// made it for that moment); what the socket does not take yet waits in `output`, as any answer does.
    private func sendPart(of client: Client) {
        let part = client.part.bytes
        let sent = part.withUnsafeBytes { raw in
            raw.isEmpty ? 0 : Glibc.send(client.fd, raw.baseAddress!, raw.count, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 && errno != EAGAIN && errno != EINTR {
            drop(client)
            return
        }
        send(bytes: part.dropFirst(max(0, sent)), to: client)
    }

    /// Delivers the changes announced while requests were being answered.
    private func announceDeferred() {
        guard !deferred.isEmpty else { return }
        let changed = deferred
        deferred.removeAll()
        notify(changed)
    }

    private func send(_ reply: MPDSession.Reply, to client: Client) {
        send(bytes: reply.text.utf8, close: reply.close, to: client)
    }

    private func send(bytes: some Collection<UInt8>, close: Bool = false, to client: Client) {
        if client.output.count - client.written > Self.maxQueuedOutput {
            log.info("dropped a \(client.tcp ? "TCP" : "Unix-socket") client that does not read its answers")
            drop(client)
            return
        }
        client.output.append(contentsOf: bytes)
        if close { client.closing = true }
        flush(client)
    }

    private func flush(_ client: Client) {
        while client.written < client.output.count {
            let offset = client.written
            let written = client.output.withUnsafeBytes {
                Glibc.send(client.fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    loop.setEvents(client.fd, Int16(POLLIN | POLLOUT))
                    return
                }
                drop(client)
                return
            }
            // Move the index, not the bytes: removing from the front of a large answer each time would
            // copy it over and over.
            client.written += written
        }
        // (A list being streamed keeps its buffers until its last part.)
        let large = client.output.count > 1 << 16 && client.stream == nil
        client.output.removeAll(keepingCapacity: !large)
        client.written = 0
        // Making a large answer (a whole listing) left thousands of small blocks freed through the heap: hand
        // their pages back, so a client's browsing does not grow the daemon for good.
        if large { MallocArenas.releaseFreePages() }
        loop.setEvents(client.fd, Int16(POLLIN))
        if client.closing { drop(client) }
    }

    private func drop(_ client: Client) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        loop.unwatch(client.fd)
        close(client.fd)
        if clients.isEmpty { loop.setTimer(.clients, at: nil) }
    }

    /// Arms the timer for the earliest moment a client that is not idle may have been silent too long.
    private func armTimeout() {
        guard timeout > .zero else { return }
        let deadlines = clients.values.filter { !$0.session.isIdle }.map { $0.lastHeard + timeout }
        guard let next = deadlines.min() else {
            loop.setTimer(.clients, at: nil)
            return
        }
        loop.setTimer(.clients, at: next) { [unowned self] in self.dropSilentClients() }
    }

    private func dropSilentClients() {
        let now = loop.now
        for client in clients.values where !client.session.isIdle && now >= client.lastHeard + timeout {
            log.info(
                "dropped a \(client.tcp ? "TCP" : "Unix-socket") client that sent nothing for \(timeout.milliseconds / 1000) s"
            )
            drop(client)
        }
        armTimeout()
    }

    // MARK: - Listening sockets

    private static func listenUnix(_ path: String) throws(DaemonError) -> Int32 {
        let folder = FileSystem.parentFolder(of: path)
        if !folder.isEmpty {
            try? FileSystem.createFolders(folder)
        }
        if ControlClient.isAnswering(path) {
            throw DaemonError("another shufflebox daemon is already answering at \(path); stop it first")
        }
        unlink(path)  // a stale socket from a crash
        guard var address = unixAddress(path) else {
            throw DaemonError("the socket path \(path) is too long (at most 107 bytes)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("cannot create a socket: \(String(cString: strerror(errno)))") }
        // Owner and group only, from the first moment: bind under a tight umask, then set the mode.
        let oldMask = umask(0o117)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(oldMask)
        guard bound == 0, chmod(path, 0o660) == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError("cannot listen on \(path): \(reason); check the folder exists and is writable")
        }
        return fd
    }

    private static func listenTCP(_ tcp: TCPAddress) throws(DaemonError) -> Int32 {
        var storage = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        if tcp.host.contains(":") {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = tcp.port.bigEndian
            guard inet_pton(AF_INET6, tcp.host, &v6.sin6_addr) == 1 else {
                throw DaemonError("tcp: '\(tcp.host)' is not an IPv6 address")
            }
            withUnsafeBytes(of: v6) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            family = AF_INET6
        } else {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = tcp.port.bigEndian
            let host = tcp.host == "localhost" ? "127.0.0.1" : tcp.host
            guard inet_pton(AF_INET, host, &v4.sin_addr) == 1 else {
                throw DaemonError("tcp: '\(tcp.host)' is not an IPv4 address (host names are not resolved)")
            }
            withUnsafeBytes(of: v4) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            family = AF_INET
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("cannot create a TCP socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError("cannot listen on TCP \(tcp): \(reason)")
        }
        return fd
    }

    /// A `sockaddr_un` for `path`, or nil when the path does not fit.
    static func unixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}
