#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one error type of authctl. Its codes are exactly the table of SPEC §6; the
/// command-line tool maps each code to its exit status in one place (`AuthError.Code.exitStatus`).
///
/// A message names what failed and what to do next. It never contains a token, an
/// authorization code, a PKCE verifier, a state, a nonce, a secret or a full callback URL:
/// constructors take only safe context.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The machine-readable codes of SPEC §6.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        case internalError = "internal-error"
        case invalidArgument = "invalid-argument"
        case networkRequestFailed = "network-request-failed"
        case invalidCredential = "invalid-credential"
        case webContextCancelled = "web-context-cancelled"
        case keystoreError = "keystore-error"
        case providerNotConfigured = "provider-not-configured"
        case accountExistsWithDifferentCredential = "account-exists-with-different-credential"
        case credentialAlreadyInUse = "credential-already-in-use"
        case providerAlreadyLinked = "provider-already-linked"
        case noSuchProvider = "no-such-provider"
        case userMismatch = "user-mismatch"
        case requiresRecentLogin = "requires-recent-login"
        case noCurrentUser = "no-current-user"
        case tenantIDMismatch = "tenant-id-mismatch"
        case consentRequired = "consent-required"

        /// The process exit status of SPEC §6.
        public var exitStatus: Int32 {
            switch self {
            case .internalError: 1
            case .invalidArgument: 2
            case .networkRequestFailed: 3
            case .invalidCredential: 4
            case .webContextCancelled: 5
            case .keystoreError: 6
            case .providerNotConfigured: 7
            case .accountExistsWithDifferentCredential: 10
            case .credentialAlreadyInUse: 11
            case .providerAlreadyLinked: 12
            case .noSuchProvider: 13
            case .userMismatch: 14
            case .requiresRecentLogin: 15
            case .noCurrentUser: 16
            case .tenantIDMismatch: 17
            case .consentRequired: 18
            }
        }
    }

    public let code: Code
    /// One sentence (or two) for a person: what failed, then what to do — its commands
    /// and inputs as values, which the executable spells.
    public let message: Message
    /// Extra machine-readable context for `--json` (never secrets): an email, provider
    /// ids, a pending-credential handle, another user's uid.
    public let details: [String: JSONValue]

    public init(_ code: Code, _ message: Message, details: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension AuthError {
    public static func invalidArgument(_ message: Message) -> AuthError { .init(.invalidArgument, message) }
    public static func keystore(_ message: Message) -> AuthError { .init(.keystoreError, message) }
    public static func notConfigured(_ message: Message) -> AuthError { .init(.providerNotConfigured, message) }
    public static func invalidCredential(_ message: Message) -> AuthError { .init(.invalidCredential, message) }
    public static func network(_ message: Message) -> AuthError { .init(.networkRequestFailed, message) }
    public static func cancelled(_ message: Message) -> AuthError { .init(.webContextCancelled, message) }
    public static func internalError(_ message: Message) -> AuthError { .init(.internalError, message) }
    public static var noCurrentUser: AuthError {
        .init(.noCurrentUser, "nobody is signed in. Sign in first: \(command: .login, "PROVIDER")")
    }

    /// An ID-token rule of OpenID Connect Core 3.1.3.7 that failed.
    static func idToken(_ rule: String) -> AuthError {
        .init(
            .invalidCredential,
            "the ID token was refused: \(rule). Try signing in again; if it keeps failing, check the provider's configuration (issuer, client id, clock)"
        )
    }

    /// `unknownUser`: a uid the keystore does not hold.
    static func unknownUser(_ uid: String) -> AuthError {
        .invalidArgument("no user has the uid '\(Sanitize.text(uid, limit: 64))'. List them with: \(command: .usersList)")
    }

    static func noSuchProvider(_ providerID: String, linked: [String]) -> AuthError {
        .init(
            .noSuchProvider,
            "the current user has no \(providerID) identity (linked: \(linked.isEmpty ? "none" : linked.joined(separator: ", "))). Link it with: \(command: .link, "\(providerID)")",
            details: ["providerId": .string(providerID), "providerIds": .array(linked.map(JSONValue.string))])
    }

    static func providerAlreadyLinked(_ providerID: String, sameIdentity: Bool) -> AuthError {
        .init(
            .providerAlreadyLinked,
            sameIdentity
                ? "this \(providerID) account is already linked to the current user. To refresh its tokens: \(command: .reauthenticate, "\(providerID)")"
                : "the current user already has a \(providerID) identity; a user has one identity per provider. To link another \(providerID) account, first run: \(command: .unlink, "\(providerID)")",
            details: ["providerId": .string(providerID)])
    }

    /// SPEC §5: a new identity whose verified email is another user's.
    static func accountExists(email: String, existing user: User, pendingHandle: String) -> AuthError {
        let providers = user.providerData.map(\.providerID)
        let first = providers.first ?? "PROVIDER"
        return .init(
            .accountExistsWithDifferentCredential,
            "an account already exists for \(email) with \(providers.joined(separator: ", ")). Sign in with \(first) (\(command: .login, "\(first)")), then run: \(command: .link, .input(.pending, pendingHandle))",
            details: [
                "email": .string(email), "providerIds": .array(providers.map(JSONValue.string)), "uid": .string(user.uid),
                "pendingCredential": .string(pendingHandle),
            ])
    }

    /// SPEC §5: `link` with an identity that belongs to another user.
    static func credentialAlreadyInUse(_ providerID: String, ownerUID: String, pendingHandle: String) -> AuthError {
        .init(
            .credentialAlreadyInUse,
            "that \(providerID) account is already linked to another user (uid \(ownerUID)). To sign in as that user: \(command: .login, .input(.credential, pendingHandle))",
            details: ["providerId": .string(providerID), "uid": .string(ownerUID), "pendingCredential": .string(pendingHandle)])
    }

    /// SPEC §4: linking a private-relay identity without consent.
    static func consentRequired(_ reason: String) -> AuthError {
        .init(
            .consentRequired,
            "linking needs your consent: \(reason). To agree, run the command again with \(input: .consent) (or answer y on a terminal)")
    }
}
