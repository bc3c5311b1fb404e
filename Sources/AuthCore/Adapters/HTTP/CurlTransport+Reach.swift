#if canImport(Glibc)
    import Glibc
#endif

extension CurlTransport {
    /// How long a connection to a provider may take to be made before it counts as unreachable.
    static let reachTimeout: Int32 = 5000

    /// A TCP connection to `url`'s host and port, closed at once; nothing is sent. Through a
    /// proxy the provider's address is the proxy's business: nothing is checked.
    public func reach(_ url: URL, what: String) async throws {
        guard let host = url.host, !host.isEmpty else { return }
        guard ProxyRoute(for: url, environment: environment).variable == nil else { return }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        let name = host.trimming(ScalarSet(charactersIn: "[]"))
        let problem: String? = await withCheckedContinuation { continuation in
            DetachedThread.start { continuation.resume(returning: Self.connect(name, port: port)) }
        }
        guard let problem else { return }
        let authority = (name.contains(":") ? "[\(name)]" : name) + ":\(port)"
        throw AuthError.network(
            "\(what) at \(authority) cannot be reached (\(problem)): the provider is down or its address is wrong. Check that it runs and that this machine reaches it, then try again"
        )
    }

    /// nil when some address of `host` took a connection within `reachTimeout`, else why not.
    static func connect(_ host: String, port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return "the name does not resolve" }
        defer { freeaddrinfo(first) }
        var problem = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            next = entry.pointee.ai_next
            let fd = socket(entry.pointee.ai_family, entry.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if Glibc.connect(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 { return nil }
            guard errno == EINPROGRESS else {
                problem = String(cString: strerror(errno)).lowercased()
                continue
            }
            var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&waiting, 1, reachTimeout) == 1 else {
                problem = "no answer within \(reachTimeout / 1000) s"
                continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return nil }
            problem = String(cString: strerror(error)).lowercased()
        }
        return problem
    }
}
