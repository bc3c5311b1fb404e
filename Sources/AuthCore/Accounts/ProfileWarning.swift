/// Why a provider's profile API did not complete a sign-in's profile. Never an error: the
/// profile the ID token stated is kept.
public enum ProfileWarning: Sendable, Equatable {
    /// Microsoft Graph `/v1.0/me` answered without a profile: its HTTP status, and the
    /// OData error code of its body when it had one. `endpoint` is host and path.
    case graphRefused(endpoint: String, status: Int, errorCode: String?)
    /// Microsoft Graph `/v1.0/me` could not be asked (network, a refused endpoint).
    case graphUnreachable(endpoint: String)
}
