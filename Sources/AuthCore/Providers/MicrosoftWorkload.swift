/// Microsoft Entra ID for workloads (docs/ci.md): the client-credentials grant of
/// the identity platform, with a secret, a certificate or a federated credential.
extension MicrosoftProvider {
    /// The grant runs in the app's own tenant: under `common`, `organizations` or
    /// `consumers` Entra ID answers AADSTS90009/50059, which says nothing of the fix.
    public func checkWorkload() throws {
        switch tenant {
        case .id, .domain:
            return
        case .common, .organizations, .consumers:
            throw AuthError.invalidArgument(
                "a workload signs in to its own tenant, not '\(tenant)'. Give it: \(command: .login, "microsoft", .input(.tenant, "TENANT_ID"), .input(.clientCredentials, nil))"
            )
        }
    }

    /// `<graph-host>/.default`: the application permissions granted to the app on Graph.
    /// Entra ID needs one resource's `.default` in every client-credentials grant.
    public var defaultWorkloadScopes: [String] { ["\(graphHost)/.default"] }

    /// The audience Entra ID's federated identity credentials expect by default.
    public var defaultFederatedAudience: String? { "api://AzureADTokenExchange" }

    /// Entra ID finds the app's certificate by `x5t#S256` (or the older SHA-1 `x5t`).
    public var wantsCertificateThumbprint: Bool { true }

    /// The defaults (`login.microsoftonline.com`, Graph) serve a workload when the provider
    /// was never added: it names its tenant and client id on the command line.
    public static var signsInWorkloadsUnconfigured: Bool { true }

    public func workloadNextStep(for error: OAuthErrorResponse) -> Message? {
        MicrosoftErrorCodes.workloadNextStep(for: error)
    }
}

extension MicrosoftErrorCodes {
    /// The AADSTS codes of app credentials, with what to fix (docs/microsoft.md); other codes
    /// get the advice of a person's sign-in.
    static let workloadSteps: [Int: Message] = [
        700016:
            "Entra ID knows no app with this client id in the tenant. Check \(input: .clientID) (the Application (client) ID of the app registration) and \(input: .tenant) (the tenant that holds it)",
        7000215:
            "The client secret is wrong or expired: create a new one in the app registration (Certificates & secrets → Client secrets) and put its value where \(input: .clientSecretEnv) or \(input: .clientSecretFile) points",
        7000222:
            "The client secret has expired: create a new one in the app registration (Certificates & secrets → Client secrets) and put its value where \(input: .clientSecretEnv) or \(input: .clientSecretFile) points",
        70021:
            "No federated credential of the app registration matches the token's issuer, subject and audience. Add one (Certificates & secrets → Federated credentials) whose subject is the token's 'sub' (GitHub: repo:OWNER/REPO:ref:refs/heads/BRANCH, or :environment:NAME) and audience api://AzureADTokenExchange, or ask that audience with \(input: .federatedAudience)",
        700024:
            "The federated token has expired (or is not yet valid). Make the CI service hand out a fresh one (\(input: .federatedTokenFile) is read again at every grant), or use \(input: .federatedToken) github-actions, which fetches one each time",
        700027:
            "The certificate's key is not registered. Upload the certificate (its public part) to the app registration (Certificates & secrets → Certificates), or check \(input: .certificateFile)",
        700023:
            "The assertion's audience is not the token endpoint of this tenant. Check \(input: .tenant) and \(input: .authorityHost)",
        7000112: "The app registration is disabled. Ask the tenant's administrator to enable it",
        700211:
            "No federated credential of the app registration names the token's issuer. Add one for the CI service's issuer (Certificates & secrets → Federated credentials)",
        700213:
            "No federated credential of the app registration names the token's subject. Add one whose subject is the token's 'sub' (GitHub: repo:OWNER/REPO:ref:refs/heads/BRANCH)",
        1002012:
            "A scope is not valid for a workload. Ask for a resource's .default, for example \(input: .scope) https://graph.microsoft.com/.default",
    ]

    public static func workloadNextStep(for error: OAuthErrorResponse) -> Message? {
        guard let code = code(of: error) else { return nil }
        return workloadSteps[code] ?? steps[code]
    }
}
