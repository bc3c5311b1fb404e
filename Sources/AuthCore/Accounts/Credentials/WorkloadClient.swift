/// What kind of account a user is: a person, who signs in through a browser, or a workload
/// (a CI job, a service) that signs in as itself with the client-credentials grant
/// (docs/ci.md). Stored as the user record's optional `kind`; absent means person,
/// so keystores written before workloads existed read as they were.
public enum UserKind: String, Sendable, Equatable {
    case person
    case workload
}

/// How a workload authenticates at the token endpoint, stored as *where to read it*, never
/// its value (docs/sign-in.md): the grant is run again from this at every `token` that needs it.
public enum WorkloadAuthentication: Sendable, Equatable {
    /// A public client: `client_id` alone. Only with the JWT-bearer grant, whose assertion
    /// (the workload's token) is then the credential (RFC 7523 §2.1, MCP SEP-1933).
    case none
    /// A client secret in an environment variable (`client_secret_basic`, or
    /// `client_secret_post` when discovery lists only that).
    case secretEnvironment(String)
    /// A client secret in a file.
    case secretFile(String)
    /// `private_key_jwt` (RFC 7523 §2.2): a PEM with the private key and its certificate.
    case certificateFile(String)
    /// A federated assertion (RFC 7521 §4.2) read afresh from a file at every grant, as
    /// Azure's WorkloadIdentityCredential re-reads `AZURE_FEDERATED_TOKEN_FILE`.
    case federatedTokenFile(String)
    /// A federated assertion in an environment variable (GitLab's `id_tokens:`).
    case federatedTokenEnvironment(String)
    /// A federated assertion fetched from the CI service at every grant.
    case federatedTokenService(FederatedTokenService)

    /// A short name for people (`status`): never a value.
    public var summary: String {
        switch self {
        case .none: "public client"
        case .secretEnvironment(let name): "client secret from $\(name)"
        case .secretFile(let path): "client secret from \(path)"
        case .certificateFile(let path): "certificate \(path)"
        case .federatedTokenFile(let path): "federated token from \(path)"
        case .federatedTokenEnvironment(let name): "federated token from $\(name)"
        case .federatedTokenService(let service): "federated token from \(service.rawValue)"
        }
    }
}

/// A CI service that hands its jobs an OIDC token on request.
public enum FederatedTokenService: String, Sendable, Equatable, CaseIterable {
    /// GitHub Actions: `ACTIONS_ID_TOKEN_REQUEST_URL` with `ACTIONS_ID_TOKEN_REQUEST_TOKEN`
    /// (the job needs `permissions: id-token: write`).
    case githubActions = "github-actions"
}

/// What a workload account needs to run its grant again: the client, how it authenticates,
/// the scopes of its own token, and the audience of a fetched federated token. Nothing in
/// it is a secret.
public struct WorkloadClient: Sendable, Equatable {
    public var clientID: String
    /// Microsoft: the tenant the grant runs in (the configured one when nil).
    public var tenant: String?
    public var authentication: WorkloadAuthentication
    /// The scopes of the session's token (`login --scope`), empty: the provider's default.
    public var scopes: [String]
    /// The audience asked of a federated token service (`--federated-audience`), nil: the
    /// provider's default.
    public var federatedAudience: String?
    /// The JWS algorithm of a `private_key_jwt` assertion when asked (`PS256` for an RSA key);
    /// nil: RS256 for an RSA key, ES256 for a P-256 key.
    public var assertionAlgorithm: String?
    /// The JWT-bearer grant (RFC 7523 §2.1; `login --jwt-bearer`): the federated source whose
    /// token, read afresh at every grant, is the grant's `assertion`, while `authentication`
    /// is the client's own (a secret, `private_key_jwt`, or `.none`). Nil: the
    /// client-credentials grant (RFC 6749 §4.4), where a federated token is the client's assertion.
    public var jwtBearerAssertion: WorkloadAuthentication?

    public init(
        clientID: String, tenant: String? = nil, authentication: WorkloadAuthentication, scopes: [String] = [],
        federatedAudience: String? = nil, assertionAlgorithm: String? = nil, jwtBearerAssertion: WorkloadAuthentication? = nil
    ) {
        self.jwtBearerAssertion = jwtBearerAssertion
        self.assertionAlgorithm = assertionAlgorithm
        self.clientID = clientID
        self.tenant = tenant
        self.authentication = authentication
        self.scopes = scopes
        self.federatedAudience = federatedAudience
    }
}

extension WorkloadClient {
    /// `grant` in `--json`: `client_credentials` or `jwt-bearer`.
    public var grantName: String { jwtBearerAssertion == nil ? "client_credentials" : "jwt-bearer" }

    /// The option that signs the workload in again with its grant (`--client-credentials`, `--jwt-bearer`).
    public var grantInput: Message.Input { jwtBearerAssertion == nil ? .clientCredentials : .jwtBearer }

    /// How the workload signs in, for people (`status`): never a value.
    public var summary: String {
        guard let assertion = jwtBearerAssertion else { return authentication.summary }
        return "JWT-bearer grant, \(assertion.summary), \(authentication.summary)"
    }
}
