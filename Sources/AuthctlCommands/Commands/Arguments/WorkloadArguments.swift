import ArgumentParser
import AuthCore

/// `login --client-credentials`: a workload signs in as itself (docs/ci.md,
/// docs/ci.md). What authenticates it is named by where to read it — never a value on the
/// command line, where any local user could read it.
struct WorkloadArguments: ParsableArguments {
    @Flag(
        name: .customLong("client-credentials"),
        help:
            "Sign in as the client itself (a CI job, a service): the client-credentials grant, no browser. See ci.md in the documentation (man authctl, FILES)."
    )
    var clientCredentials = false

    @Flag(
        name: .customLong("jwt-bearer"),
        help:
            "Sign in as a workload by the JWT-bearer grant (RFC 7523): its token from --federated-token-file, --federated-token-env or --federated-token is the grant, no browser. See ci.md in the documentation."
    )
    var jwtBearer = false

    /// A workload signs in (either grant).
    var isWorkload: Bool { clientCredentials || jwtBearer }

    /// The option that chose the workload's grant, for messages.
    var grantOption: String { jwtBearer ? "--jwt-bearer" : "--client-credentials" }

    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: the client (app) id, instead of the provider's configured one.", valueName: "id"))
    var clientID: String?

    @Option(
        name: .customLong("client-secret-env"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: the environment variable that holds the client secret (default: the provider's configured secret, when no other option is given).",
            valueName: "var"))
    var clientSecretEnv: String?

    @Option(
        name: .customLong("client-secret-file"),
        help: ArgumentHelp("With --client-credentials or --jwt-bearer: a file that holds the client secret.", valueName: "path"),
        completion: .file())
    var clientSecretFile: String?

    @Option(
        name: .customLong("certificate-file"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: a PEM with the private key and its certificate (private_key_jwt, RFC 7523); mode 0600.",
            valueName: "path"), completion: .file())
    var certificateFile: String?

    @Option(
        name: .customLong("assertion-algorithm"),
        help: ArgumentHelp(
            "With --certificate-file: the assertion's algorithm (RS256 or PS256 for an RSA key, ES256 for a P-256 key; default by the key).",
            valueName: "alg"),
        completion: .list(ClientAssertion.algorithms))
    var assertionAlgorithm: String?

    @Option(
        name: .customLong("federated-token-file"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: a file with a federated token (a JWT from another issuer), read again at every grant.",
            valueName: "path"), completion: .file())
    var federatedTokenFile: String?

    @Option(
        name: .customLong("federated-token-env"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: the environment variable that holds a federated token.", valueName: "var"))
    var federatedTokenEnv: String?

    @Option(
        name: .customLong("federated-token"),
        help: ArgumentHelp(
            "With --client-credentials or --jwt-bearer: fetch the federated token from the CI service at every grant.",
            valueName: "github-actions"),
        completion: .list(FederatedTokenService.allCases.map(\.rawValue)))
    var federatedToken: String?

    @Option(
        name: .customLong("federated-audience"),
        help: ArgumentHelp(
            "The audience to ask of the CI service's token (default: the server's issuer with --jwt-bearer; api://AzureADTokenExchange for microsoft.com).",
            valueName: "audience")
    )
    var federatedAudience: String?

    /// The sources given, by their option.
    var sources: [(String, WorkloadAuthentication)] { clientSources + federatedSources }

    /// The client's own secret or key, by their option.
    var clientSources: [(String, WorkloadAuthentication)] {
        var sources: [(String, WorkloadAuthentication)] = []
        if let clientSecretEnv { sources.append(("--client-secret-env", .secretEnvironment(clientSecretEnv))) }
        if let clientSecretFile { sources.append(("--client-secret-file", .secretFile(Self.absolute(clientSecretFile)))) }
        if let certificateFile { sources.append(("--certificate-file", .certificateFile(Self.absolute(certificateFile)))) }
        return sources
    }

    /// The federated token's sources, by their option.
    var federatedSources: [(String, WorkloadAuthentication)] {
        var sources: [(String, WorkloadAuthentication)] = []
        if let federatedTokenFile { sources.append(("--federated-token-file", .federatedTokenFile(Self.absolute(federatedTokenFile)))) }
        if let federatedTokenEnv { sources.append(("--federated-token-env", .federatedTokenEnvironment(federatedTokenEnv))) }
        if let service = federatedToken.flatMap(FederatedTokenService.init(rawValue:)) {
            sources.append(("--federated-token", .federatedTokenService(service)))
        }
        return sources
    }

    func validate() throws {
        let workloadOnly: [(String, Bool)] = [
            ("--client-id", clientID != nil), ("--client-secret-env", clientSecretEnv != nil),
            ("--client-secret-file", clientSecretFile != nil), ("--certificate-file", certificateFile != nil),
            ("--federated-token-file", federatedTokenFile != nil), ("--federated-token-env", federatedTokenEnv != nil),
            ("--federated-token", federatedToken != nil), ("--federated-audience", federatedAudience != nil),
            ("--assertion-algorithm", assertionAlgorithm != nil),
        ]
        guard isWorkload else {
            if let (option, _) = workloadOnly.first(where: \.1) {
                throw ValidationError(
                    "\(option) goes with --client-credentials or --jwt-bearer (a workload signing in as itself; see ci.md in the documentation)"
                )
            }
            return
        }
        if clientCredentials, jwtBearer {
            throw ValidationError(
                "give one grant: --jwt-bearer (the workload's token is the grant) or --client-credentials (the client's credentials are), not both"
            )
        }
        if let federatedToken, FederatedTokenService(rawValue: federatedToken) == nil {
            throw ValidationError(
                "--federated-token '\(Sanitize.text(federatedToken, limit: 40))' is not a CI service authctl knows: give github-actions, or read the token with --federated-token-file or --federated-token-env"
            )
        }
        for name in [clientSecretEnv, federatedTokenEnv].compactMap({ $0 }) where !Self.isVariableName(name) {
            throw ValidationError(
                "'\(Sanitize.text(name, limit: 40))' is not an environment variable name: give the variable's name (CI_SECRET), never its value"
            )
        }
        if jwtBearer {
            try validateJWTBearer()
        } else if sources.count > 1 {
            // None given: the provider's configured secret, if it has one (`client`).
            throw ValidationError("give one way for the client to authenticate, not \(sources.map(\.0).joined(separator: " and "))")
        }
        if federatedAudience != nil, federatedToken == nil {
            throw ValidationError(
                "--federated-audience is what --federated-token asks of the CI service; a token read from a file or variable has its own")
        }
        if let clientID, clientID.isEmpty { throw ValidationError("--client-id is empty") }
        if let assertionAlgorithm {
            guard certificateFile != nil else { throw ValidationError("--assertion-algorithm goes with --certificate-file") }
            guard ClientAssertion.algorithms.contains(assertionAlgorithm) else {
                throw ValidationError(
                    "--assertion-algorithm '\(Sanitize.text(assertionAlgorithm, limit: 20))' is not one authctl signs: give \(ClientAssertion.algorithms.joined(separator: ", "))"
                )
            }
        }
    }

    /// `--jwt-bearer`: one federated token (the grant), at most one way for the client to
    /// authenticate (none: the provider's configured secret, else a public client).
    func validateJWTBearer() throws {
        guard !federatedSources.isEmpty else {
            throw ValidationError(
                "--jwt-bearer needs the workload's token, which is the grant: give --federated-token-file PATH (Kubernetes: the projected service account token), --federated-token-env VAR or --federated-token github-actions"
            )
        }
        if federatedSources.count > 1 {
            throw ValidationError(
                "give one federated token for the grant, not \(federatedSources.map(\.0).joined(separator: " and "))")
        }
        if clientSources.count > 1 {
            throw ValidationError(
                "give one way for the client to authenticate, not \(clientSources.map(\.0).joined(separator: " and ")) (none: a public client)"
            )
        }
    }

    /// A path as `token` will read it later from any directory: absolute.
    static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// A POSIX environment variable name: letters, digits and `_`, not starting with a digit.
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.count <= 256 else { return false }
        return name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// What authenticates the workload: the option given, else the client secret the provider
    /// or key was configured with (`providers add … --client-secret-env VAR`, `--client-secret-file
    /// PATH` or `--client-certificate-file PEM`), as someone who configured it once expects.
    func authentication(configured: ProviderConfig) throws -> WorkloadAuthentication {
        if let given = sources.first?.1 { return given }
        if let variable = configured.clientSecretEnv { return .secretEnvironment(variable) }
        if let file = configured.clientSecretFile { return .secretFile(Self.absolute(file)) }
        if let file = configured.clientCertificateFile { return .certificateFile(Self.absolute(file)) }
        throw AuthError.invalidArgument(
            "--client-credentials needs how the client authenticates: --federated-token-file PATH, --federated-token-env VAR, --federated-token github-actions, --certificate-file PEM, --client-secret-env VAR or --client-secret-file PATH (or configure the provider's secret once: \(command: .providersAdd, "\(configured.id)", "…", .input(.clientSecretEnv, "VAR")))"
        )
    }

    /// How the client of a JWT-bearer grant authenticates: the option given, else the secret
    /// or key the provider was configured with, else not at all (a public client: the token is
    /// the credential).
    func grantClientAuthentication(configured: ProviderConfig) -> WorkloadAuthentication {
        if let given = clientSources.first?.1 { return given }
        if let variable = configured.clientSecretEnv { return .secretEnvironment(variable) }
        if let file = configured.clientSecretFile { return .secretFile(Self.absolute(file)) }
        if let file = configured.clientCertificateFile { return .certificateFile(Self.absolute(file)) }
        return .none
    }

    /// The workload's client, or nil without `--client-credentials` or `--jwt-bearer`.
    func client(flow: FlowArguments, configured: ProviderConfig) throws -> WorkloadClient? {
        guard isWorkload else { return nil }
        let assertion = jwtBearer ? federatedSources.first?.1 : nil
        let source = jwtBearer ? grantClientAuthentication(configured: configured) : try authentication(configured: configured)
        guard let clientID = clientID ?? configured.clientID else {
            throw AuthError.notConfigured("the workload has no client id. Give it: \(input: .clientID) ID")
        }
        return WorkloadClient(
            clientID: clientID, tenant: flow.tenant, authentication: source, scopes: flow.scopes, federatedAudience: federatedAudience,
            assertionAlgorithm: assertionAlgorithm, jwtBearerAssertion: assertion)
    }
}
