/// `providerData[].workload` to and from the domain's `WorkloadClient` (docs/keystore.md):
/// where a workload's credentials are read, and which grant it runs.
extension KeystoreRecord.Workload {
    init(_ client: WorkloadClient) {
        self.init(
            clientId: client.clientID, tenant: client.tenant, scopes: client.scopes, federatedAudience: client.federatedAudience,
            assertionAlgorithm: client.assertionAlgorithm)
        set(client.authentication)
        if let assertion = client.jwtBearerAssertion {
            grant = Self.jwtBearerGrant
            set(assertion)
        }
    }

    /// `grant` of a workload that runs the JWT-bearer grant.
    static let jwtBearerGrant = "jwt-bearer"

    private mutating func set(_ source: WorkloadAuthentication) {
        switch source {
        case .none: break
        case .secretEnvironment(let name): clientSecretEnv = name
        case .secretFile(let path): clientSecretFile = path
        case .certificateFile(let path): certificateFile = path
        case .federatedTokenFile(let path): federatedTokenFile = path
        case .federatedTokenEnvironment(let name): federatedTokenEnv = name
        case .federatedTokenService(let service): federatedTokenSource = service.rawValue
        }
    }

    /// The domain's client; nil when the record names no source the build knows (a
    /// `token` then says to sign in again rather than guess).
    var domain: WorkloadClient? {
        let client: WorkloadAuthentication? =
            if let clientSecretEnv {
                .secretEnvironment(clientSecretEnv)
            } else if let clientSecretFile {
                .secretFile(clientSecretFile)
            } else if let certificateFile {
                .certificateFile(certificateFile)
            } else {
                nil
            }
        let federated: WorkloadAuthentication? =
            if let federatedTokenFile {
                .federatedTokenFile(federatedTokenFile)
            } else if let federatedTokenEnv {
                .federatedTokenEnvironment(federatedTokenEnv)
            } else if let service = federatedTokenSource.flatMap(FederatedTokenService.init(rawValue:)) {
                .federatedTokenService(service)
            } else {
                nil
            }
        var workload = WorkloadClient(
            clientID: clientId, tenant: tenant, authentication: .none, scopes: scopes, federatedAudience: federatedAudience,
            assertionAlgorithm: assertionAlgorithm)
        switch grant {
        case nil:
            guard let source = client ?? federated else { return nil }
            workload.authentication = source
        case Self.jwtBearerGrant?:
            // A grant this build does not know, or one without its token, is not guessed at.
            guard let federated else { return nil }
            workload.authentication = client ?? .none
            workload.jwtBearerAssertion = federated
        default:
            return nil
        }
        return workload
    }
}
