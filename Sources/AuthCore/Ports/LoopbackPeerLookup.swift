#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One end of a TCP connection: an IPv4 or IPv6 address (its 4 or 16 bytes, network order)
/// and a port.
public struct SocketEndpoint: Sendable, Equatable {
    public var address: [UInt8]
    public var port: UInt16

    public init(address: [UInt8], port: UInt16) {
        self.address = address
        self.port = port
    }
}

/// Who owns the other end of a loopback connection, as the kernel's socket table says.
public enum LoopbackPeerOwner: Sendable, Equatable {
    /// The connecting socket belongs to this user id.
    case user(UInt32)
    /// The table was read but names no live owner: no matching entry, or an entry whose
    /// socket its process has already closed (uid 0, inode 0: never taken as anyone's).
    case unknown
    /// This platform has no socket table authctl can read (not Linux).
    case unsupported
}

/// The seam the loopback listener asks about each connection it accepts (docs/sign-in.md step 3).
public protocol LoopbackPeerLookup: Sendable {
    func owner(ofPeer peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> LoopbackPeerOwner
}

/// Who may use the loopback listener: the user's own processes (the default), or any
/// local user (`--allow-any-local-user`, for a browser relayed by another user's process).
public enum LoopbackAccess: Sendable, Equatable {
    case sameUser(UInt32)
    case anyLocalUser

    /// The user running authctl.
    public static var currentUser: LoopbackAccess { .sameUser(UInt32(geteuid())) }

    /// Whether a connection from `owner` is served. A peer that cannot be identified on a
    /// platform that has the table is refused; where there is no table (not Linux), every
    /// peer is served (docs/security.md says so).
    public func admits(_ owner: LoopbackPeerOwner) -> Bool {
        switch (self, owner) {
        case (.anyLocalUser, _): true
        case (.sameUser(let uid), .user(let peer)): uid == peer
        case (.sameUser, .unknown): false
        case (.sameUser, .unsupported): true
        }
    }
}
