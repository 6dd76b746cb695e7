import Glibc
import LibLinux
import ShuffleCore

/// The control socket: a Unix socket (mode 0660) and optionally TCP, speaking the MPD subset through
/// `MPDSession`. Everything runs on the event loop's thread: non-blocking accept, read and write.
final class ControlServer {
    /// At most this many clients at once; more are accepted and closed at once.
    static let maxClients = 64
    /// A client that does not read its answers is dropped past this much queued output.
    static let maxQueuedOutput = 1 << 20

    private final class Client {
        let fd: Int32
        var lines = MPDLineBuffer()
        var session = MPDSession()
        var output: [UInt8] = []
        var closing = false
        init(fd: Int32) { self.fd = fd }
    }

    private let loop: EventLoop
    private let backend: any MPDBackend & AnyObject
    private var listeners: [Int32] = []
    private var clients: [Int32: Client] = [:]
    /// Changes announced while a request is being answered, delivered right after it: a command that
    /// changes the volume notifies the very session that is in the middle of `receive`.
    private var deferred: Set<IdleSubsystem> = []
    private var dispatching = false
    /// The Unix socket path (unlinked on close).
    let path: String

    /// Binds the Unix socket at `path` (and TCP at `tcp`) and starts accepting.
    init(loop: EventLoop, path: String, tcp: TCPAddress?, backend: any MPDBackend & AnyObject) throws(DaemonError) {
        self.loop = loop
        self.backend = backend
        self.path = path
        let unix = try Self.listenUnix(path)
        listeners.append(unix)
        if let tcp {
            do throws(DaemonError) {
                listeners.append(try Self.listenTCP(tcp))
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

    /// Number of connected clients.
    var clientCount: Int { clients.count }

    /// Tells every client waiting in `idle` that `subsystems` changed.
    func notify(_ subsystems: Set<IdleSubsystem>) {
        if dispatching {
            deferred.formUnion(subsystems)
            return
        }
        for client in clients.values {
            if let reply = client.session.notify(subsystems) { send(reply, to: client) }
        }
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
            guard clients.count < Self.maxClients else {
                close(fd)
                continue
            }
            let client = Client(fd: fd)
            clients[fd] = client
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self] revents in self.service(client, revents) }
            send(MPDSession.Reply(MPDSession.greeting), to: client)
        }
    }

    private func service(_ client: Client, _ revents: Int16) {
        if revents & Int16(POLLOUT) != 0 { flush(client) }
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
        var backend = self.backend
        for chunk in client.lines.append(buffer.prefix(count)) {
            dispatching = true
            let reply = client.session.receive(chunk, backend: &backend)
            dispatching = false
            send(reply, to: client)
            if reply.close || client.closing { break }
        }
        if !deferred.isEmpty {
            let changed = deferred
            deferred.removeAll()
            notify(changed)
        }
    }

    private func send(_ reply: MPDSession.Reply, to client: Client) {
        client.output.append(contentsOf: reply.text.utf8)
        if reply.close { client.closing = true }
        if client.output.count > Self.maxQueuedOutput {
            drop(client)
            return
        }
        flush(client)
    }

    private func flush(_ client: Client) {
        while !client.output.isEmpty {
            let written = client.output.withUnsafeBytes {
                Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
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
            client.output.removeFirst(written)
        }
        loop.setEvents(client.fd, Int16(POLLIN))
        if client.closing { drop(client) }
    }

    private func drop(_ client: Client) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        loop.unwatch(client.fd)
        close(client.fd)
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
