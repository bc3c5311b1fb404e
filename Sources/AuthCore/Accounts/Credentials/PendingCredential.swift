/// A credential that could not be applied, saved under a short handle so that a later
/// command — in another process — can finish the resolution (docs/accounts.md).
///
/// Firebase keeps this credential in memory, inside the error; authctl keeps it in the
/// keystore for one hour. It holds tokens, so it is as secret as the session: only its
/// handle is ever printed.
public struct PendingCredential: Sendable, Equatable {
    /// Why the credential is waiting.
    public enum Reason: String, Sendable, Equatable {
        /// `login`: the identity's verified email belongs to another user (`authctl link --pending`).
        case accountExists = "account-exists-with-different-credential"
        /// `link`: the identity belongs to another user (`authctl login --credential`).
        case credentialAlreadyInUse = "credential-already-in-use"
    }

    /// How long a pending credential can be used.
    public static let lifetime: TimeInterval = 3600

    /// `pc_` and 20 random URL-safe characters.
    public var handle: String
    public var reason: Reason
    /// The user the conflict is with: the owner of the email, or of the identity.
    public var conflictingUID: String
    public var createdAt: Date
    public var expiresAt: Date
    public var credential: Credential

    public init(handle: String, reason: Reason, conflictingUID: String, createdAt: Date, credential: Credential) {
        self.handle = handle
        self.reason = reason
        self.conflictingUID = conflictingUID
        self.createdAt = createdAt
        self.expiresAt = createdAt.addingTimeInterval(Self.lifetime)
        self.credential = credential
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Whether `text` has the shape of a handle (checked before the keystore is searched).
    public static func isHandle(_ text: String) -> Bool {
        text.hasPrefix("pc_") && text.count >= 8 && text.count <= 64
            && text.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
