#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Linux: `/proc/net/tcp` and `/proc/net/tcp6`, the kernel's table of this network
/// namespace's TCP sockets, each with the uid that created it. The connecting socket is
/// the entry whose local address is our peer and whose remote address is us.
public struct ProcNetTCPPeerLookup: LoopbackPeerLookup {
    public init() {}

    /// The tables are small on a workstation; a bound keeps a hostile number of sockets
    /// from making one lookup unbounded.
    static let maximumTableBytes = 64 << 20

    public func owner(ofPeer peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> LoopbackPeerOwner {
        #if os(Linux)
            let path = peer.address.count == 4 ? "/proc/net/tcp" : "/proc/net/tcp6"
            guard let table = Self.readTable(path) else { return .unknown }
            return Self.owner(in: table, peer: peer, local: local)
        #else
            return .unsupported
        #endif
    }

    /// Finds the connecting socket's owner in the text of `/proc/net/tcp` or `tcp6`:
    /// `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …`,
    /// addresses as the kernel prints them (each 32-bit word in host byte order, `%08X`),
    /// ports as `%04X`.
    public static func owner(in table: String, peer: SocketEndpoint, local: SocketEndpoint) -> LoopbackPeerOwner {
        let wantedLocal = procFormat(peer)
        let wantedRemote = procFormat(local)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[1] == wantedLocal, fields[2] == wantedRemote else { continue }
            // A socket whose process closed it lingers (FIN_WAIT, TIME_WAIT) with no inode
            // and uid 0: it has no owner any more, and must never pass for root's.
            guard let uid = UInt32(fields[7]), let inode = UInt64(fields[9]), inode != 0 else { return .unknown }
            return .user(uid)
        }
        return .unknown
    }

    /// An endpoint as `/proc/net/tcp*` prints it: `0100007F:1F90` for 127.0.0.1:8080.
    static func procFormat(_ endpoint: SocketEndpoint) -> String {
        var words: [String] = []
        for start in stride(from: 0, to: endpoint.address.count, by: 4) {
            let bytes = endpoint.address[start..<min(start + 4, endpoint.address.count)]
            guard bytes.count == 4 else { return "" }
            // The kernel prints each 32-bit word of the address as the CPU holds it.
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            words.append(hex(UInt64(word), digits: 8))
        }
        return words.joined() + ":" + hex(UInt64(endpoint.port), digits: 4)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func readTable(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < maximumTableBytes {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
