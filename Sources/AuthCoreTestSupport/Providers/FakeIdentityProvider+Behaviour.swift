import AuthCore
import Foundation

extension FakeIdentityProvider {
    /// What the provider does; every field defaults to correct behaviour.
    public struct Behaviour: Sendable {
        public var subject = "248289761001"
        public var email: String? = "ada@example.com"
        public var emailVerified: JSONValue = .bool(true)
        public var name: String? = "Ada Lovelace"
        public var accessTokenLifetime: JSONValue = .number(3600)
        /// Appended to every access token issued (a lying provider: shell syntax, spaces).
        public var accessTokenSuffix = ""
        /// Overrides the `iss` claim of ID tokens.
        public var idTokenIssuer: String?
        /// Overrides the `aud` claim.
        public var idTokenAudience: JSONValue?
        public var idTokenAuthorizedParty: String?
        /// Overrides the `nonce` claim (nil: echo the request's).
        public var idTokenNonce: String?
        /// Seconds from now; `exp` and `iat`.
        public var idTokenExpiresIn: TimeInterval = 3600
        public var idTokenIssuedAgo: TimeInterval = 0
        public var expAsString = false
        public var signing: TestTokenSigner.Signing = .rs256
        /// Sign with a key that is not in the JWKS (same kid).
        public var signWithUnpublishedKey = false
        public var discoveryIssuer: String?
        /// Sends this `state` back instead of the request's (a forged or stale redirect).
        public var forgedState: String?
        public var authorizeError: String?
        public var authorizeErrorDescription: String?
        /// Add `iss` to the authorization response (RFC 9207), and advertise it.
        public var sendIssuerOnRedirect = false
        public var issuerOnRedirect: String?
        /// Token endpoint answers: nil = normal.
        public var tokenEndpointOverride: HTTPResponse?
        public var refreshError: String?
        public var rotateRefreshTokens = true
        /// A provider that breaks RFC 6749 §6: the refresh token it rotates on a refresh that
        /// names `scope` carries only that scope, and a later refresh with it gets no more
        /// (asked for more: `invalid_scope`). It answers with the scope asked, when one is.
        public var narrowRotatedRefreshTokens = false
        public var idTokenOnRefresh = true
        public var refreshedSubject: String?
        public var revocationSupported = true
        /// Delay of each token-endpoint answer (to widen races in concurrency tests).
        public var tokenDelay: TimeInterval = 0
        /// A confidential client: the token endpoint then requires this secret, by HTTP
        /// Basic (`client_secret_basic`) or, when `secretInBody`, in the form (`client_secret_post`).
        public var clientSecret: String?
        public var secretInBody = false
        /// The device flow (RFC 8628): advertised when true.
        public var deviceAuthorizationSupported = true
        /// What the token endpoint answers to each device-code poll, in order: an OAuth
        /// error (`authorization_pending`, `slow_down`, `access_denied`, `expired_token`)
        /// or `approve`. After the list: `approve`.
        public var devicePolls: [String] = ["authorization_pending", "approve"]
        public var deviceInterval: JSONValue? = .number(5)
        public var deviceExpiresIn: TimeInterval = 900
        public var deviceVerificationComplete = true
        /// The device authorization's `user_code`, and the path of its `verification_uri`
        /// (a lying provider: terminal escapes in what the person is shown).
        public var deviceUserCode = "WDJB-MJHT"
        public var deviceVerificationPath = "/activate"
        /// CIBA (CIBA Core 1.0, poll mode): `backchannel_authentication_endpoint` advertised
        /// when true, with these delivery modes; its polls answer as `devicePolls` says.
        public var backchannelSupported = true
        public var backchannelModes: [String] = ["poll"]
        /// A backchannel request naming another login hint is refused (`unknown_user_id`).
        public var backchannelLoginHint = "ada@example.com"
        /// The HTTP status of OAuth error answers (token, device and revocation endpoints):
        /// 400 as RFC 6749 §5.2 says, 200 as GitHub's OAuth server answers.
        public var oauthErrorStatus = 400
        /// Clients that may use the client-credentials grant (FakeWorkloads.swift).
        public var workloads: [WorkloadRegistration] = []
        /// The revocation endpoint answers this OAuth error (with `oauthErrorStatus`).
        public var revocationError: String?
        /// Where the key set is served (a server path), instead of `<issuer>/jwks`.
        public var jwksPath: String?
        /// Members added to the key set document (a hostile provider's document that is also
        /// a discovery document).
        public var jwksExtraMembers: [String: JSONValue] = [:]
        /// Token introspection (RFC 7662) at `/introspect`, advertised when true.
        public var introspectionSupported = false
        /// The userinfo endpoint (OIDC Core §5.3) at `/userinfo`, advertised when true.
        public var userinfoSupported = false
        /// The authorization endpoint refuses every redirect URI as unregistered (an error
        /// page, as real providers show, never a redirect to the unregistered URI).
        public var refuseRedirectURI = false
        /// Sends a `Date` header this many seconds off the real time on every answer (nil: none).
        public var dateOffset: TimeInterval?

        public init() {}
    }
}
