/// Microsoft's AADSTS error codes (`error_codes` in the token endpoint's error body, and
/// `AADSTSnnnn:` at the start of `error_description`) with what to do about each one that
/// a user of a command-line sign-in can meet. docs/microsoft.md lists them.
public enum MicrosoftErrorCodes {
    /// The AADSTS number of an error: the first of `error_codes`, or the one the
    /// description starts with.
    public static func code(of error: OAuthErrorResponse) -> Int? {
        if let first = error.errorCodes.first { return first }
        guard let description = error.errorDescription, description.hasPrefix("AADSTS") else { return nil }
        return Int(description.dropFirst(6).prefix { $0.isNumber })
    }

    static let steps: [Int: Message] = [
        50011:
            "Add the redirect URI to the app registration (Authentication → Mobile and desktop applications → http://localhost), or pass the registered one with \(input: .redirectURI)",
        500113: "Add a redirect URI to the app registration (Authentication → Mobile and desktop applications → http://localhost)",
        700016:
            "Check \(input: .clientID) (the Application (client) ID) and that the app may be used in this tenant (\(input: .tenant), or make the app multi-tenant)",
        7000218:
            "The app is treated as a confidential client: enable 'Allow public client flows' in the app registration (Authentication), or configure its secret with \(input: .clientSecretEnv)",
        7000215:
            "The client secret is wrong or expired: create a new one in the app registration (Certificates & secrets) and point \(input: .clientSecretEnv) or \(input: .clientSecretFile) at it",
        70008: "The sign-in has expired (inactivity or a reset). Sign in again: \(command: .login, "microsoft")",
        700082: "The refresh token expired after inactivity. Sign in again: \(command: .login, "microsoft")",
        50173: "The session was revoked (for example after a password change). Sign in again: \(command: .login, "microsoft")",
        54005: "The authorization code was already used. Sign in again",
        65001:
            "The app lacks consent for these scopes: sign in again with \(input: .parameter) prompt=consent, or ask a tenant administrator to grant consent",
        65004: "Consent was declined. Sign in again and accept, or ask for fewer scopes",
        50020:
            "This account does not belong to the tenant asked. Use \(input: .tenant) with the account's tenant, \(input: .tenant) common, or have the account invited as a guest",
        90072:
            "This account does not belong to the tenant asked. Use \(input: .tenant) with the account's tenant, \(input: .tenant) common, or have the account invited as a guest",
        90002:
            "The tenant does not exist. Check \(input: .tenant) (a tenant id, a verified domain, common, organizations or consumers) and \(input: .authorityHost)",
        50076: "The tenant asks for multi-factor authentication. Sign in again interactively: \(command: .login, "microsoft")",
        50079: "The tenant asks to register for multi-factor authentication. Sign in again interactively: \(command: .login, "microsoft")",
        53003: "A Conditional Access policy blocked the sign-in. Ask the tenant's administrator, then sign in again",
        70011:
            "A scope is not valid. Check \(input: .scope); ask for the scopes of one resource at a time (for example https://graph.microsoft.com/.default)",
        28000:
            "Scopes of several resources were asked at once. Ask for the scopes of one resource at a time (\(command: .token, "microsoft", .input(.scope, "RESOURCE/.default")))",
        28003:
            "Scopes of several resources were asked at once. Ask for the scopes of one resource at a time (\(command: .token, "microsoft", .input(.scope, "RESOURCE/.default")))",
        501481: "The PKCE verifier did not match. Sign in again",
        9002313:
            "Microsoft refused the request as malformed. Sign in again; if it keeps failing, check \(input: .authorityHost) and \(input: .tenant)",
    ]

    public static func nextStep(for error: OAuthErrorResponse) -> Message? {
        guard let code = code(of: error) else { return nil }
        return steps[code]
    }
}
