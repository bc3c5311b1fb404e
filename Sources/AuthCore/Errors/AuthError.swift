/// The one error type of authctl, built only by the named constructors below (as jwt-kit's
/// `JWTError`): its codes are exactly those of docs/exit-codes.md, and a code goes with the kind of
/// message it names. The command-line tool maps each code to its exit status in one
/// place (`Sources/AuthctlCommands/ExitStatus.swift`).
///
/// A message names what failed and what to do next. It never contains a token, an
/// authorization code, a PKCE verifier, a state, a nonce, a secret or a full callback URL:
/// constructors take only safe context.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A machine-readable code of docs/exit-codes.md. Its cases are the static members; the set is
    /// closed (a private backing enum), so that only this file decides what a code is.
    public struct Code: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
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
            case userDisabled = "user-disabled"
            case userTokenExpired = "user-token-expired"
            case stepUpRequired = "step-up-required"
            case resourceError = "resource-error"
            case commandNotExecutable = "command-not-executable"
            case commandNotFound = "command-not-found"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        public static let internalError = Code(.internalError)
        public static let invalidArgument = Code(.invalidArgument)
        public static let networkRequestFailed = Code(.networkRequestFailed)
        public static let invalidCredential = Code(.invalidCredential)
        public static let webContextCancelled = Code(.webContextCancelled)
        public static let keystoreError = Code(.keystoreError)
        public static let providerNotConfigured = Code(.providerNotConfigured)
        public static let accountExistsWithDifferentCredential = Code(.accountExistsWithDifferentCredential)
        public static let credentialAlreadyInUse = Code(.credentialAlreadyInUse)
        public static let providerAlreadyLinked = Code(.providerAlreadyLinked)
        public static let noSuchProvider = Code(.noSuchProvider)
        public static let userMismatch = Code(.userMismatch)
        public static let requiresRecentLogin = Code(.requiresRecentLogin)
        public static let noCurrentUser = Code(.noCurrentUser)
        public static let tenantIDMismatch = Code(.tenantIDMismatch)
        public static let consentRequired = Code(.consentRequired)
        /// docs/firebase.md: the Firebase project disabled the account.
        public static let userDisabled = Code(.userDisabled)
        /// docs/firebase.md: the Firebase project ended the user's session.
        public static let userTokenExpired = Code(.userTokenExpired)
        /// docs/resources.md: a resource asks for more scope or a stronger authentication, and
        /// no person is at the terminal to give it.
        public static let stepUpRequired = Code(.stepUpRequired)
        /// docs/resources.md: `request` got an error status that is no authentication challenge.
        public static let resourceError = Code(.resourceError)
        /// docs/exit-codes.md: `exec`'s program exists but cannot be run (a shell's 126).
        public static let commandNotExecutable = Code(.commandNotExecutable)
        /// docs/exit-codes.md: `exec`'s program does not exist (a shell's 127).
        public static let commandNotFound = Code(.commandNotFound)

        /// Every code, in docs/exit-codes.md's order.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code as docs/exit-codes.md spells it (`keystore-error`): `--json`'s `error.code`.
        public var rawValue: String { base.rawValue }

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// One sentence (or two) for a person: what failed, then what to do — its commands
    /// and inputs as values, which the executable spells.
    public let message: Message
    /// Extra machine-readable context for `--json` (never secrets): an email, provider
    /// ids, a pending-credential handle, another user's uid.
    public let details: [String: JSONValue]
    /// The provider's OAuth error behind this failure (RFC 6749 §5.2), when a provider
    /// refused something; `details` carries it as `oauthError` for `--json`.
    public let oauthError: OAuthErrorCode?

    private init(_ code: Code, _ message: Message, details: [String: JSONValue] = [:], oauthError: OAuthErrorCode? = nil) {
        self.code = code
        self.message = message
        var details = details
        if let oauthError { details["oauthError"] = .string(oauthError.rawValue) }
        self.details = details
        self.oauthError = oauthError
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The constructors of the codes whose message the failing site writes.
extension AuthError {
    public static func invalidArgument(_ message: Message) -> AuthError { .init(.invalidArgument, message) }
    /// The loopback listener's port is taken by another program (`details.portInUse`: the
    /// port), so that a sign-in whose client authctl registered can register it on another.
    public static func portInUse(_ message: Message, port: UInt16) -> AuthError {
        .init(.invalidArgument, message, details: ["portInUse": .number(Double(port))])
    }
    /// The port of `portInUse`, nil for every other error.
    public var portInUse: UInt16? {
        guard code == .invalidArgument, case .number(let port)? = details["portInUse"] else { return nil }
        return UInt16(exactly: port)
    }
    public static func keystore(_ message: Message) -> AuthError { .init(.keystoreError, message) }
    /// `oauthError`: the provider's, when it refused the configuration.
    public static func notConfigured(
        _ message: Message, oauthError: OAuthErrorCode? = nil, details: [String: JSONValue] = [:]
    ) -> AuthError {
        .init(.providerNotConfigured, message, details: details, oauthError: oauthError)
    }
    /// `oauthError`: the provider's, when it refused; `details`: more of its words (Microsoft's `errorCodes`).
    public static func invalidCredential(
        _ message: Message, oauthError: OAuthErrorCode? = nil, details: [String: JSONValue] = [:]
    ) -> AuthError {
        .init(.invalidCredential, message, details: details, oauthError: oauthError)
    }
    public static func network(_ message: Message) -> AuthError { .init(.networkRequestFailed, message) }
    /// `oauthError`: the provider's (`expired_token`), when it ended the wait.
    public static func cancelled(_ message: Message, oauthError: OAuthErrorCode? = nil, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.webContextCancelled, message, details: details, oauthError: oauthError)
    }
    public static func internalError(_ message: Message) -> AuthError { .init(.internalError, message) }
    public static var noCurrentUser: AuthError { noCurrentUser(signInWith: nil) }
    /// `no-current-user`, naming the provider to sign in to when it is known (the one the
    /// command named, or the only one configured).
    public static func noCurrentUser(signInWith providerID: String?) -> AuthError {
        .init(.noCurrentUser, "nobody is signed in. Sign in first: \(command: .login, "\(providerID ?? "PROVIDER")")")
    }
    /// `no-current-user` with the site's own message (a user whose session has ended).
    static func noCurrentUser(message: Message) -> AuthError { .init(.noCurrentUser, message) }
    /// `no-such-provider` with the site's own message (the identity a command needs is missing).
    static func noSuchProvider(message: Message) -> AuthError { .init(.noSuchProvider, message) }
    /// `credential-already-in-use` with the site's own message (`users import`).
    static func credentialAlreadyInUse(message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.credentialAlreadyInUse, message, details: details)
    }
    /// docs/accounts.md: the credential is not the one linked to the current user (`reauth`).
    static func userMismatch(_ message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.userMismatch, message, details: details)
    }
    /// docs/accounts.md: an operation that needs a recent sign-in (`users delete`).
    static func requiresRecentLogin(_ message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.requiresRecentLogin, message, details: details)
    }
    /// docs/firebase.md: the Firebase project disabled the account (`USER_DISABLED`).
    static func userDisabled(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.userDisabled, message, details: details)
    }
    /// docs/firebase.md: the Firebase project ended the session (`TOKEN_EXPIRED`, `INVALID_REFRESH_TOKEN`, …).
    static func userTokenExpired(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.userTokenExpired, message, details: details)
    }
    /// `account-exists-with-different-credential` with the site's own message (Firebase's `needConfirmation`).
    static func accountExists(message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.accountExistsWithDifferentCredential, message, details: details)
    }
    /// `provider-already-linked` with the site's own message (Firebase's `PROVIDER_ALREADY_LINKED`).
    static func providerAlreadyLinked(message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.providerAlreadyLinked, message, details: details)
    }
    /// docs/resources.md: a configured provider lent to a resource on another origin without the
    /// person's consent (the message names the provider, the resource, the scopes and the command).
    static func consentRequired(_ message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.consentRequired, message, details: details)
    }
    /// docs/resources.md: the resource asks for a step-up that needs a person (the message names the command).
    public static func stepUpRequired(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.stepUpRequired, message, details: details)
    }
    /// docs/resources.md: the resource answered an error status (`details`: the status and body).
    public static func resourceError(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.resourceError, message, details: details)
    }
    /// docs/exit-codes.md: `exec`'s program does not exist, or is on no directory of `PATH`.
    public static func commandNotFound(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.commandNotFound, message, details: details)
    }
    /// docs/exit-codes.md: `exec`'s program exists but cannot be run (not executable, a directory…).
    public static func commandNotExecutable(_ message: Message, details: [String: JSONValue] = [:]) -> AuthError {
        .init(.commandNotExecutable, message, details: details)
    }
    /// docs/sign-in.md: a Microsoft token from a tenant other than the one asked.
    static func tenantIDMismatch(_ message: Message, details: [String: JSONValue]) -> AuthError {
        .init(.tenantIDMismatch, message, details: details)
    }
}

/// The constructors that write their own message from the data of the failure.
extension AuthError {
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

    /// docs/accounts.md: `link` with an identity that belongs to another user.
    static func credentialAlreadyInUse(_ providerID: String, ownerUID: String, pendingHandle: String) -> AuthError {
        .init(
            .credentialAlreadyInUse,
            "that \(providerID) account is already linked to another user (uid \(ownerUID)). To sign in as that user: \(command: .login, .input(.credential, pendingHandle))",
            details: ["providerId": .string(providerID), "uid": .string(ownerUID), "pendingCredential": .string(pendingHandle)])
    }

    /// docs/apple.md: linking a private-relay identity without consent.
    static func consentRequired(_ reason: String) -> AuthError {
        .init(
            .consentRequired,
            "linking needs your consent: \(reason). To agree, run the command again with \(input: .consent) (or answer y on a terminal)")
    }
}

extension AuthError {
    /// The same error (code, details) with its message reworded, e.g. after what was being checked.
    func reworded(_ change: (Message) -> Message) -> AuthError { AuthError(code, change(message), details: details) }
}
