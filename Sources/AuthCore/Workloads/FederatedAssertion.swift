/// The federated token a workload presents as its client assertion (RFC 7521 §4.2, the
/// `jwt-bearer` assertion type of RFC 7523 §2.2), obtained afresh at every grant: read from
/// a file or an environment variable, or fetched from the CI service. authctl does not
/// check it: the provider does, against the federated credential registered for the app.
struct FederatedAssertion: Sendable {
    let transport: any HTTPTransport
    let secrets: any SecretSource

    /// The variables GitHub Actions sets in a job with `permissions: id-token: write`.
    static let actionsRequestURL = "ACTIONS_ID_TOKEN_REQUEST_URL"
    static let actionsRequestToken = "ACTIONS_ID_TOKEN_REQUEST_TOKEN"

    /// The most the token service's answer may be: 64 KiB.
    static let answerLimit = 64 << 10

    /// The token of a federated source; `audience` is asked of a CI service.
    func token(_ authentication: WorkloadAuthentication, audience: String?) async throws -> String {
        let token: String
        switch authentication {
        case .federatedTokenFile(let path):
            token = try secrets.federatedTokenFile(path)
        case .federatedTokenEnvironment(let name):
            guard let value = try secrets.secretVariable(name, option: .federatedTokenEnv)?.trimming(.whitespacesAndNewlines),
                !value.isEmpty
            else {
                throw AuthError.notConfigured(
                    "the federated token comes from the environment variable \(name), which is not set or empty. Set it (GitLab: id_tokens: in the job), or change \(input: .federatedTokenEnv)"
                )
            }
            token = value
        case .federatedTokenService(.githubActions):
            token = try await githubActions(audience: audience)
        case .none, .secretEnvironment, .secretFile, .certificateFile:
            throw AuthError.internalError("not a federated token source")
        }
        try Self.checkShape(token, source: authentication.summary)
        return token
    }

    /// A federated token is a JWT: three base64url segments, at most 64 KiB. Anything else
    /// (an HTML page, a file of something else) is refused here rather than sent.
    static func checkShape(_ token: String, source: String) throws {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard token.utf8.count <= answerLimit, segments.count == 3, segments.prefix(2).allSatisfy({ !$0.isEmpty }),
            segments.allSatisfy({ $0.allSatisfy(base64URL.contains) })
        else {
            throw AuthError.invalidArgument("the \(source) is not a JWT (three base64url parts). Check \(input: .federatedToken)")
        }
    }

    /// GitHub Actions' OIDC token: `GET $ACTIONS_ID_TOKEN_REQUEST_URL&audience=AUD` with
    /// `Authorization: Bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN`, answered `{"value": "JWT"}`.
    func githubActions(audience: String?) async throws -> String {
        guard let address = secrets.environmentValue(Self.actionsRequestURL), !address.isEmpty,
            let bearer = secrets.environmentValue(Self.actionsRequestToken), !bearer.isEmpty
        else {
            throw AuthError.notConfigured(
                "\(Self.actionsRequestURL) and \(Self.actionsRequestToken) are not set: this is not a GitHub Actions job, or the job lacks 'permissions: id-token: write'. Add it to the workflow, or use \(input: .federatedTokenFile)"
            )
        }
        guard let audience, !audience.isEmpty else {
            throw AuthError.invalidArgument(
                "a GitHub Actions token needs an audience: the one the provider's federated credential expects. Give it with \(input: .federatedAudience)"
            )
        }
        guard var components = URLComponents(string: address), components.host?.isEmpty == false else {
            throw AuthError.notConfigured(
                "\(Self.actionsRequestURL) is not a URL. It is set by the GitHub Actions runner; do not set it yourself")
        }
        try EndpointPolicy.check(components.url ?? URL(fileURLWithPath: "/"), what: "\(Self.actionsRequestURL)")
        // The runner's URL carries its own query (`api-version=2.0`); the audience is added,
        // every character but the unreserved ones percent-encoded.
        let audienceItem = "audience=" + FormURLEncoding.escape(audience)
        components.percentEncodedQuery =
            components.percentEncodedQuery.map { $0.isEmpty ? audienceItem : $0 + "&" + audienceItem } ?? audienceItem
        guard let url = components.url else {
            throw AuthError.notConfigured(
                "\(Self.actionsRequestURL) is not a URL. It is set by the GitHub Actions runner; do not set it yourself")
        }
        var request = HTTPRequest(
            url: url, headers: ["Authorization": "Bearer \(bearer)", "Accept": "application/json"], responseLimit: Self.answerLimit)
        // The runner's own token to the runner's own service, both from the job's environment.
        request.egress = .handedOver(recipient: "the GitHub Actions token service")
        try request.checkHeaders()
        let response = try await transport.send(request)
        let host = url.host ?? "the GitHub Actions token service"
        guard response.status == 200 else {
            throw AuthError.network(
                "the GitHub Actions token service at \(host) answered HTTP \(response.status). Check that the job has 'permissions: id-token: write'"
            )
        }
        guard let json = JSONValue.object(from: response.body), let value = json["value"]?.stringValue, !value.isEmpty else {
            throw AuthError.network("the GitHub Actions token service at \(host) did not answer {\"value\": TOKEN}. Try the job again")
        }
        return value
    }
}
