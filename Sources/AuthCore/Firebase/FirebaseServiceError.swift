/// An error answer of the Identity Toolkit or securetoken (docs/firebase.md): the service's code and
/// detail, read from `{"error":{"message":"CODE : detail"}}`, from the `reason` of a Google
/// API error (`API_KEY_INVALID`), or from `errorMessage` of an HTTP 200 (`returnIdpCredential`).
public struct FirebaseServiceError: Sendable, Equatable {
    /// `EMAIL_EXISTS`, `TOKEN_EXPIRED`, … (upper-case letters, digits and `_`, at most 64).
    public var code: String
    /// The service's words after ` : `, sanitized; never shown with a secret in it (the
    /// service puts none there).
    public var detail: String?

    public init(code: String, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// The error an answer carries, nil when it carries none.
    public static func parse(_ response: HTTPResponse) -> FirebaseServiceError? {
        guard let json = JSONValue.object(from: response.body) else { return nil }
        if response.status == 200 {
            return json["errorMessage"]?.stringValue.flatMap { split($0) }
        }
        guard let error = json["error"]?.objectValue else { return nil }
        // A Google API error: the reason of its ErrorInfo (a bad API key), else its status.
        for detail in error["details"]?.arrayValue ?? [] {
            if let reason = detail.objectValue?["reason"]?.stringValue, let parsed = split(reason) { return parsed }
        }
        if let message = error["message"]?.stringValue, let parsed = split(message) { return parsed }
        return error["status"]?.stringValue.flatMap { split($0) }
    }

    /// `CODE : detail` → code and detail; nil when the text does not begin with a code.
    static func split(_ text: String) -> FirebaseServiceError? {
        let parts = text.split(separator: ":", maxSplits: 1)
        let code = String(parts.first ?? "").trimming(.whitespaces)
        let allowed = ScalarSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        guard (2...64).contains(code.count), code.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        let detail = parts.count > 1 ? Sanitize.text(String(parts[1]).trimming(.whitespaces), limit: 200) : nil
        return FirebaseServiceError(code: code, detail: detail?.isEmpty == true ? nil : detail)
    }
}

/// docs/firebase.md's table: each Firebase error as the `AuthError` of docs/exit-codes.md, with what to do in the
/// Firebase console or on the command line. The conflicts that keep a pending credential
/// (`needConfirmation`, `EMAIL_EXISTS`, `FEDERATED_USER_ID_ALREADY_LINKED`) are made by the
/// account store, which saves it first; here they get the message without a handle.
public enum FirebaseErrorMapping {
    /// What the failing call was doing, for the words and for `USER_NOT_FOUND`.
    public enum Operation: Sendable, Equatable {
        case signIn(providerID: String)
        case link(providerID: String)
        case reauthenticate(providerID: String)
        case refresh
        case unlink(providerID: String)
        case delete
        case lookup
    }

    public static func error(_ failure: FirebaseServiceError, operation: Operation, project: String) -> AuthError {
        let provider = operation.providerID ?? "PROVIDER"
        let details: [String: JSONValue] = ["firebaseError": .string(failure.code)]
        let detail = failure.detail.map { " (\($0))" } ?? ""
        let signInAgain: Message = "Sign in again: \(command: .login, "\(provider)")"
        switch failure.code {
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN":
            return .requiresRecentLogin(
                "Firebase needs a recent sign-in for this (within the last 5 minutes). Sign in again first: \(command: .reauthenticate, "\(provider)")",
                details: details)
        case "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN", "MISSING_OR_INVALID_NONCE":
            return .invalidCredential(
                "Firebase refused the \(provider) credential: \(failure.code)\(detail). Try again; if it repeats, check the provider's client id and secret in the Firebase console (Authentication, Sign-in method, \(provider))",
                details: details)
        case "OPERATION_NOT_ALLOWED":
            return .notConfigured(
                "\(provider) is not enabled in the Firebase project \(project). Enable it in the Firebase console: Authentication, Sign-in method, Add new provider (with the provider's client id and secret)",
                details: details)
        case "INVALID_API_KEY", "API_KEY_INVALID", "PERMISSION_DENIED":
            return .notConfigured(
                "Firebase refused the API key of the project \(project). Copy the Web API key from the Firebase console (Project settings, General) and set it: \(command: .backendUse, "firebase", .input(.project, "\(project)"), .input(.apiKey, "KEY"))",
                details: details)
        case "CONFIGURATION_NOT_FOUND":
            return .notConfigured(
                "Firebase Authentication is not set up in the project \(project). Open Authentication in the Firebase console and choose Get started, then enable the providers",
                details: details)
        case "PROJECT_NOT_FOUND":
            return .notConfigured(
                "there is no Firebase project \(project). Check the project id in the Firebase console (Project settings) and set it: \(command: .backendUse, "firebase", .input(.project, "ID"), .input(.apiKey, "KEY"))",
                details: details)
        case "UNAUTHORIZED_DOMAIN":
            return .notConfigured(
                "the Firebase project \(project) does not accept the redirect's domain. Add it to the authorized domains (Firebase console: Authentication, Settings, Authorized domains): localhost, or the domain of the \(input: .redirectURI) page",
                details: details)
        case "TENANT_ID_MISMATCH", "INVALID_TENANT_ID", "TENANT_NOT_FOUND":
            return .notConfigured(
                "Firebase refused the tenant: \(failure.code)\(detail). Check the tenant id in the Identity Platform's Tenants page and set it: \(command: .backendUse, "firebase", .input(.project, "\(project)"), .input(.apiKey, "KEY"), .input(.tenantID, "TENANT"))",
                details: details)
        case "USER_DISABLED":
            return .userDisabled(
                "the account is disabled in the Firebase project \(project). An administrator can enable it again in the Firebase console (Authentication, Users, Enable account)",
                details: details)
        case "USER_NOT_FOUND" where operation.isReauthentication:
            return .userMismatch(
                "that \(provider) account is not linked to any user of the Firebase project \(project), so it is not the current user's. Sign in with the current user's \(provider) account",
                details: details.merging(["providerId": .string(provider)]) { $1 })
        case "TOKEN_EXPIRED", "INVALID_ID_TOKEN", "USER_NOT_FOUND", "INVALID_REFRESH_TOKEN", "USER_TOKEN_EXPIRED":
            return .userTokenExpired(
                "the Firebase project \(project) ended this session (\(failure.code)): its tokens were revoked, or the account was deleted or changed. \(signInAgain)",
                details: details)
        case "FEDERATED_USER_ID_ALREADY_LINKED", "CREDENTIAL_ALREADY_IN_USE":
            return .credentialAlreadyInUse(
                message: "that \(provider) account is already linked to another user of the Firebase project \(project)",
                details: details.merging(["providerId": .string(provider)]) { $1 })
        case "EMAIL_EXISTS":
            return .accountExists(
                message:
                    "an account already exists for that email in the Firebase project \(project). Sign in with that account's provider first",
                details: details)
        case "PROVIDER_ALREADY_LINKED":
            return .providerAlreadyLinked(
                message:
                    "the current user already has a \(provider) identity in the Firebase project \(project). To link another one, first run: \(command: .unlink, "\(provider)")",
                details: details.merging(["providerId": .string(provider)]) { $1 })
        case "TOO_MANY_ATTEMPTS_TRY_LATER", "QUOTA_EXCEEDED":
            return .network("Firebase is limiting requests from this project (\(failure.code)). Try again in a few minutes")
        default:
            return .invalidCredential(
                "Firebase refused the request: \(failure.code)\(detail). Check the project's Authentication settings in the Firebase console",
                details: details)
        }
    }
}

extension FirebaseErrorMapping.Operation {
    var providerID: String? {
        switch self {
        case .signIn(let id), .link(let id), .reauthenticate(let id), .unlink(let id): id
        case .refresh, .delete, .lookup: nil
        }
    }

    var isReauthentication: Bool { if case .reauthenticate = self { true } else { false } }
}
