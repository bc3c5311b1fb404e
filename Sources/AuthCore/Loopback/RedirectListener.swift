import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loopback redirect listener (RFC 8252 §7.3): a socket bound to a loopback address
/// only, open while one sign-in waits, around `CallbackStateMachine`.
///
/// Who may talk to it (docs/sign-in.md step 3): each accepted connection's other end is looked up
/// in the kernel's socket table; a connection owned by another local user gets a static 403
/// and never reaches the state machine, so another user can neither take the one-time start
/// URL nor deliver a code (`LoopbackAccess`).
///
/// Bounds: at most `maximumConnections` connections at once, each with a short deadline for
/// its whole request; header and body sizes are bounded by `HTTPRequestParser`. A full table
/// evicts its oldest connection (none of them has sent a complete request yet, or it would
/// have been answered) rather than refusing the newest, so idle or slow connections cannot
/// keep the browser's redirect out. A stray or hostile request gets a 4xx (or is dropped)
/// and the listener keeps waiting until the timeout.
public final class RedirectListener: @unchecked Sendable {
    /// Something the listener saw that the person signing in should hear about.
    public enum Event: Sendable, Equatable {
        /// A connection from a process that is not the user's was answered 403.
        case refusedPeer(LoopbackPeerOwner)
    }

    /// The address actually bound; `port` is the ephemeral one when 0 was asked.
    public let host: String
    public let port: UInt16
    private let socketFD: Int32
    private let access: LoopbackAccess
    /// The 403 page another local user's connection gets.
    private let otherUserPage: String
    private let peers: any LoopbackPeerLookup
    private let closed = Mutex(false)
    /// What `startServed` and `renewStart(to:)` share with the serving loop, which judges
    /// each request under this lock, so that a renewal and a request are never judged at once.
    private let shared = Mutex(Shared())

    private struct Shared {
        /// The current start URL has been served.
        var served = false
        /// The wait has ended (a redirect, a refusal, the timeout).
        var ended = false
        /// Renewals taken, not yet given to the state machine.
        var renewals: [CallbackStateMachine.Expectation] = []
    }

    static let maximumConnections = 64
    /// How long a connection may take to send its whole request: a browser sends it at once.
    static let requestDeadline: TimeInterval = 5

    /// Binds `host` (a loopback IPv4 or IPv6 literal, or `localhost`) and `port` (0: ephemeral).
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, access: LoopbackAccess = .currentUser,
        otherUserPage: String = SignInPage.otherUser(allowedBy: nil), peers: any LoopbackPeerLookup
    ) throws {
        let literal = host.lowercased() == "localhost" ? "127.0.0.1" : host.trimming(ScalarSet(charactersIn: "[]"))
        guard EndpointPolicy.isLoopback(host: literal) else {
            throw AuthError.invalidArgument("the listen address '\(host)' is not a loopback address. Use 127.0.0.1, [::1] or localhost")
        }
        let isIPv6 = literal.contains(":")
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard fd >= 0 else { throw AuthError.internalError("could not create the loopback listener socket (errno \(errno))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let result: Int32
        let boundPort: UInt16
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, literal, &address.sin6_addr)
            (result, boundPort) = Self.bind(fd, &address) { UInt16(bigEndian: $0.sin6_port) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else {
                Glibc.close(fd)
                throw AuthError.invalidArgument("the listen address '\(host)' is not an IP address. Use 127.0.0.1 or [::1]")
            }
            (result, boundPort) = Self.bind(fd, &address) { UInt16(bigEndian: $0.sin_port) }
        }
        guard result == 0, listen(fd, 64) == 0 else {
            let code = errno
            Glibc.close(fd)
            if code == EADDRINUSE {
                throw AuthError.portInUse(
                    "the port \(port) on \(host) is already in use. Choose another with \(input: .listenAddress), or stop what uses it",
                    port: port)
            }
            throw AuthError.internalError("could not listen on \(host):\(port) (errno \(code))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.socketFD = fd
        self.host = host
        self.port = boundPort
        self.access = access
        self.otherUserPage = otherUserPage
        self.peers = peers
    }

    deinit { close() }

    /// The loopback ports authctl chooses itself for a redirect URI that must stay the same (a
    /// registered client's, `--manual`'s and `--remote`'s drawn one): the dynamic range (RFC 6335
    /// §6) above Linux's range for outgoing connections' own ports (`ip_local_port_range`,
    /// 32768–60999), where any connection of the machine could hold the port when a listener
    /// needs it.
    public static let unlentPorts: ClosedRange<UInt16> = 61000...65535

    /// A port of 127.0.0.1 that is free now, for a client registered with a redirect URI that
    /// names its port: the first of `preferring` that binds, else one the system chooses
    /// (bound to port 0 and read back). Nil when no socket can be had.
    public static func freePort(preferring candidates: [UInt16] = []) -> UInt16? {
        for candidate in candidates where candidate != 0 {
            if let port = bindable(candidate) { return port }
        }
        return bindable(0)
    }

    /// `port` (0: the system's choice) when a listener could bind it on 127.0.0.1 now.
    private static func bindable(_ port: UInt16) -> UInt16? {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let (result, bound) = bind(fd, &address) { UInt16(bigEndian: $0.sin_port) }
        return result == 0 && bound != 0 ? bound : nil
    }

    /// Binds `fd` to a `sockaddr_in` or `sockaddr_in6`; returns bind's result and the port
    /// actually bound (read back with getsockname, for ephemeral ports).
    private static func bind<Address>(_ fd: Int32, _ address: inout Address, port: (Address) -> UInt16) -> (Int32, UInt16) {
        let size = socklen_t(MemoryLayout<Address>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, size) }
        }
        guard result == 0 else { return (result, 0) }
        var length = size
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (0, port(address))
    }

    /// Closes the socket. Safe to call more than once.
    public func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            _ = Glibc.close(socketFD)
        }
    }

    private var isClosed: Bool {
        closed.withLock { $0 }
    }

    /// True once the current one-time start URL has redirected a browser to the provider,
    /// while the redirect back is still awaited.
    public var startServed: Bool { shared.withLock { $0.served && !$0.ended } }

    /// Judges by `expectation` from now on, its start URL one-time and the served one spent
    /// (`CallbackStateMachine.renewStart(to:)`): every request not judged yet is judged so.
    /// False, changing nothing, when the wait has ended or the start URL was not served.
    public func renewStart(to expectation: CallbackStateMachine.Expectation) -> Bool {
        shared.withLock { shared in
            guard shared.served, !shared.ended else { return false }
            shared.renewals.append(expectation)
            shared.served = false
            return true
        }
    }

    /// What ended the wait: the state machine's outcome, and the browser's request that
    /// brought it, waiting for the page that tells how the sign-in ended.
    public struct Redirect: Sendable {
        public let outcome: CallbackStateMachine.Outcome
        public let browser: BrowserAnswer
    }

    /// Serves requests until the state machine finishes, `deadline` passes on `clock`
    /// (`web-context-cancelled`) or the task is cancelled (Ctrl-C; also `web-context-cancelled`).
    /// Every deadline of the listener (the redirect's, each connection's, the browser's page)
    /// is read from `clock`, which the poll loop consults at least every 100 ms.
    /// The listener is closed when this returns; the finishing request is not answered yet
    /// (`Redirect.browser`).
    public func waitForRedirect(
        _ machine: CallbackStateMachine, until deadline: Date, clock: any Clock, events: @escaping @Sendable (Event) -> Void = { _ in }
    ) async throws -> Redirect {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Redirect, any Error>) in
                DetachedThread.start { [self] in
                    let result = Result {
                        try self.serve(machine, deadline: deadline, clock: clock, cancelled: cancelled, events: events)
                    }
                    self.close()
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private struct Connection {
        var fd: Int32
        var parser = HTTPRequestParser()
        var deadline: Date
        /// Owned by another local user (or by no one the socket table names): its request is
        /// read and answered 403, never judged.
        var forbidden: Bool
        /// Who the socket table said owns its other end, looked up when it was accepted.
        var owner: LoopbackPeerOwner
    }

    private func serve(
        _ initial: CallbackStateMachine, deadline: Date, clock: any Clock, cancelled: CancellationFlag,
        events: @Sendable (Event) -> Void
    ) throws -> Redirect {
        var machine = initial
        var connections: [Connection] = []
        defer {
            for connection in connections { _ = Glibc.close(connection.fd) }
            // However it ends (the timeout, Ctrl-C): nothing is renewed any more.
            shared.withLock { $0.ended = true }
        }
        while true {
            if cancelled.isSet || isClosed {
                throw AuthError.cancelled("the sign-in was cancelled. Run the command again to sign in")
            }
            let now = clock.now()
            // Not `>=` on a NaN-free comparison alone: a deadline that is not a number ends at once.
            if !(now < deadline) {
                throw AuthError.cancelled(
                    "no sign-in response arrived before the timeout. Run the command again (and finish the sign-in in the browser), or raise \(input: .timeout)"
                )
            }
            // Drop connections past their read deadline (slow or idle clients).
            connections.removeAll { connection in
                if now >= connection.deadline { _ = Glibc.close(connection.fd); return true }
                return false
            }
            var descriptors = [pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)]
            descriptors += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready <= 0 { continue }
            // Existing connections first (in reverse so removal keeps indices valid).
            for index in stride(from: connections.count - 1, through: 0, by: -1) where descriptors[index + 1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(connections[index].fd, &buffer, buffer.count)
                if count <= 0 {
                    _ = Glibc.close(connections[index].fd)
                    connections.remove(at: index)
                    continue
                }
                let response: ListenerResponse
                switch connections[index].parser.append(buffer[0..<count]) {
                case .needMore:
                    continue
                case _ where connections[index].forbidden:
                    // Reported only once it has asked something: a connection that its client
                    // closes without a request (a speculative pre-connect, lynx without a
                    // terminal) has no owner left in the table, and is nothing to warn about.
                    events(.refusedPeer(connections[index].owner))
                    response = .page(status: 403, otherUserPage)
                case .invalid(let status):
                    response = .text(status: status, "Bad request.")
                case .complete(let request):
                    let action = judge(request, &machine)
                    if case .finish(let outcome) = action.decision {
                        // The request that ends the wait is answered when the outcome is known.
                        let finishing = connections.remove(at: index)
                        return Redirect(outcome: outcome, browser: BrowserAnswer(fd: finishing.fd, fallback: action.response, clock: clock))
                    }
                    response = action.response
                }
                Self.write(response.bytes, to: connections[index].fd)
                _ = Glibc.close(connections[index].fd)
                connections.remove(at: index)
            }
            if descriptors[0].revents & Int16(POLLIN) != 0, let client = acceptConnection(now: clock.now()) {
                // A full table evicts its oldest connection: every one in it is still
                // waiting for its request, and the newest is the likeliest to be the browser.
                if connections.count >= Self.maximumConnections {
                    _ = Glibc.close(connections.removeFirst().fd)
                }
                connections.append(client)
            }
        }
    }

    /// A request judged by the state machine, with the renewals taken before it (under the lock).
    private func judge(_ request: ReceivedRequest, _ machine: inout CallbackStateMachine) -> CallbackStateMachine.Action {
        shared.withLock { shared in
            for expectation in shared.renewals { machine.renewStart(to: expectation) }
            shared.renewals = []
            let action = machine.receive(request)
            shared.served = machine.startServed
            if case .finish = action.decision { shared.ended = true }
            return action
        }
    }

    /// Accepts one connection and asks the socket table at once who owns its other end
    /// (before anything is read: a client that closes drops its entry's owner).
    private func acceptConnection(now: Date) -> Connection? {
        var peerAddress = sockaddr_storage()
        var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &peerAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(socketFD, $0, &peerLength) }
        }
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        var localAddress = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &localAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &localLength) }
        }
        var owner = LoopbackPeerOwner.unknown
        if named == 0, let peer = Self.endpoint(peerAddress), let local = Self.endpoint(localAddress) {
            owner = peers.owner(ofPeer: peer, connectedTo: local)
        }
        return Connection(
            fd: client, deadline: now.addingTimeInterval(Self.requestDeadline), forbidden: !access.admits(owner), owner: owner)
    }

    /// The address and port of a `sockaddr_in` or `sockaddr_in6`.
    static func endpoint(_ storage: sockaddr_storage) -> SocketEndpoint? {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> SocketEndpoint? in
            switch family {
            case AF_INET:
                let address = raw.load(as: sockaddr_in.self)
                let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
                return SocketEndpoint(address: bytes, port: UInt16(bigEndian: address.sin_port))
            case AF_INET6:
                let address = raw.load(as: sockaddr_in6.self)
                let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                return SocketEndpoint(address: bytes, port: UInt16(bigEndian: address.sin6_port))
            default:
                return nil
            }
        }
    }

    static func write(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        var attempts = 0
        while offset < bytes.count, attempts < 100 {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                attempts += 1
                usleep(10_000)
            } else {
                return
            }
        }
    }
}
