/// The Firebase project that holds the users when the backend is Firebase (docs/firebase.md):
/// `config.json`'s `firebase` object, written by `backend use firebase`.
///
/// The API key is not a secret (every Firebase app embeds it) but it is never logged nor
/// printed, in a message or by `backend show`: only whether one is set.
public struct FirebaseConfig: Codable, Sendable, Equatable {
    public var projectId: String
    public var apiKey: String
    /// Identity Platform multi-tenancy: the tenant users sign in to (`tenantId` of each call).
    public var tenantId: String?
    /// `HOST:PORT` of the Auth emulator (loopback only); `FIREBASE_AUTH_EMULATOR_HOST` overrides it.
    public var emulator: String?

    public init(projectId: String, apiKey: String, tenantId: String? = nil, emulator: String? = nil) {
        self.projectId = projectId
        self.apiKey = apiKey
        self.tenantId = tenantId
        self.emulator = emulator
    }

    /// The rules of `backend use firebase`, each failure naming its field (`ConfigFieldError`).
    public func validate() throws {
        try Self.field("projectId") { try Self.checkProjectID(projectId) }
        try Self.field("apiKey") { try Self.checkAPIKey(apiKey) }
        try Self.field("tenantId") { if let tenantId { try Self.checkTenantID(tenantId) } }
        try Self.field("emulator") { if let emulator { _ = try FirebaseEmulatorHost(parsing: emulator, from: .emulator) } }
    }

    private static func field(_ name: String, _ check: () throws -> Void) throws {
        do { try check() } catch let error as AuthError { throw ConfigFieldError(field: name, error: error) }
    }

    /// A Google Cloud project id: a lower-case letter, then lower-case letters, digits and
    /// hyphens, not ending with a hyphen; 4 to 63 characters (6–30 for new projects; the
    /// emulator's `demo-…` ids and older projects are accepted).
    static func checkProjectID(_ id: String) throws {
        let allowed = ScalarSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")
        guard (4...63).contains(id.count), let first = id.unicodeScalars.first, ("a"..."z").contains(first), !id.hasSuffix("-"),
            id.unicodeScalars.allSatisfy(allowed.contains)
        else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(id, limit: 64))' is not a Firebase project id: it is the lower-case id shown in the Firebase console's project settings (letters, digits and hyphens), for example my-app-1a2b3"
            )
        }
    }

    /// The Web API key of the project: printable letters, digits, `-` and `_`, at most 128
    /// characters. Its value is never repeated in the message.
    static func checkAPIKey(_ key: String) throws {
        let allowed = ScalarSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        guard (1...128).contains(key.count), key.unicodeScalars.allSatisfy(allowed.contains) else {
            throw AuthError.invalidArgument(
                "the API key is not one: copy the Web API key from the Firebase console (Project settings, General), it looks like AIza followed by 35 letters, digits, - and _"
            )
        }
    }

    /// An Identity Platform tenant id: letters, digits and hyphens, at most 128 characters.
    static func checkTenantID(_ id: String) throws {
        let allowed = ScalarSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        guard (1...128).contains(id.count), id.unicodeScalars.allSatisfy(allowed.contains) else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(id, limit: 64))' is not a tenant id: it is the id shown in the Identity Platform's Tenants page (letters, digits and hyphens)"
            )
        }
    }
}

/// `HOST:PORT` of the Firebase Auth emulator: a loopback host only (docs/getting-started.md, docs/firebase.md), a port 1–65535.
public struct FirebaseEmulatorHost: Sendable, Equatable {
    /// Where the value came from, for the message.
    public enum Source: Sendable {
        case emulator
        case environment
    }

    public var host: String
    public var port: UInt16

    public init(parsing text: String, from source: Source) throws {
        let origin: Message =
            switch source {
            case .emulator: "\(input: .emulator)"
            case .environment: "FIREBASE_AUTH_EMULATOR_HOST"
            }
        let usage: Message =
            "\(origin) takes HOST:PORT of the Firebase Auth emulator on this machine (127.0.0.1:9099, localhost:9099 or [::1]:9099); the real service is reached over https without it"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port != 0 else {
            throw AuthError.invalidArgument(usage)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard EndpointPolicy.isLoopback(host: host) else { throw AuthError.invalidArgument(usage) }
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 address in brackets.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
