/// A user held by a Firebase project (docs/firebase.md): the project, the tenant, and the session —
/// the Firebase ID token (`idToken`), its refresh token and expiry — which the project issued
/// and securetoken refreshes. The user's `uid` is Firebase's `localId`.
public struct UserBackend: Sendable, Equatable {
    public var projectID: String
    public var tenantID: String?
    /// Nil after sign-out, or when the project ended the session (`user-token-expired`).
    public var session: TokenSet?
    /// `HOST:PORT` of the Auth emulator that issued the session; nil for the real service.
    /// The session is used with that service only: its refresh token goes nowhere else.
    public var emulator: String?

    public init(projectID: String, tenantID: String?, session: TokenSet?, emulator: String? = nil) {
        self.projectID = projectID
        self.tenantID = tenantID
        self.session = session
        self.emulator = emulator
    }

    /// What `status`, `users list` and `--json` name: `firebase:PROJECT[/TENANT]`.
    public var name: String { "firebase:\(projectID)" + (tenantID.map { "/\($0)" } ?? "") }

    /// The service, as a person reads it: the emulator's address, or Firebase itself.
    public var serviceName: String { Self.serviceName(emulator: emulator) }

    /// The service of an emulator address (nil: Firebase itself), as a person reads it.
    public static func serviceName(emulator: String?) -> String {
        emulator.map { "the Auth emulator at \($0)" } ?? "Firebase (googleapis.com)"
    }
}
