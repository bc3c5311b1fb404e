import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

private func answer(_ json: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(json.utf8))
}

/// The request of a workload's JWT-bearer grant (RFC 7523 §2.1, docs/ci.md): its token as
/// `assertion`, scopes and resource as for client credentials, the client's own
/// authentication beside it (none, a secret), and the keystore record that says so.
@Suite("Workloads: the JWT-bearer grant's request and record")
struct WorkloadJWTBearerGrantTests {
    let discovery = DiscoveryDocument(
        issuer: "https://as.example", authorizationEndpoint: URL(string: "https://as.example/authorize")!,
        tokenEndpoint: URL(string: "https://as.example/token")!, jwksURI: nil)
    let token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln"

    func provider() throws -> any IdentityProvider {
        try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.as", clientID: "configured", issuer: "https://as.example"))
    }

    func send(_ workload: WorkloadClient, secrets: [String: String], resource: URL? = nil) async throws -> HTTPRequest {
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer","expires_in":60}"#) }
        let tokens = TokenClient(
            transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets(secrets))
        let grant = try await tokens.workloadGrant(workload, scopes: ["mcp:tools", "mcp:read"], discovery: discovery)
        _ = try await tokens.requestTokens(
            grant, provider: try provider(), client: .workload(workload), discovery: discovery, resource: resource,
            binding: .of(discovery))
        return try #require(transport.requests.first)
    }

    @Test("a public client: grant_type jwt-bearer, the token as assertion, scope and resource, client_id alone")
    func publicClient() async throws {
        let workload = WorkloadClient(
            clientID: "agent", authentication: .none, jwtBearerAssertion: .federatedTokenEnvironment("WORKLOAD_JWT"))
        let sent = try await send(workload, secrets: ["WORKLOAD_JWT": token + "\n"], resource: URL(string: "https://mcp.example/mcp"))
        let form = FakeHTTP.form(sent.body ?? Data())
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" && form["assertion"] == token)
        #expect(form["scope"] == "mcp:tools mcp:read" && form["resource"] == "https://mcp.example/mcp")
        #expect(form["client_id"] == "agent" && form["client_assertion"] == nil && form["client_assertion_type"] == nil)
        #expect(sent.headers["Authorization"] == nil && sent.url == discovery.tokenEndpoint)
    }

    @Test("a confidential client: its secret by client_secret_basic, the token still the grant's assertion")
    func confidentialClient() async throws {
        let workload = WorkloadClient(
            clientID: "agent", authentication: .secretEnvironment("AGENT_SECRET"),
            jwtBearerAssertion: .federatedTokenEnvironment("WORKLOAD_JWT"))
        let sent = try await send(workload, secrets: ["WORKLOAD_JWT": token, "AGENT_SECRET": "s3cret"])
        let form = FakeHTTP.form(sent.body ?? Data())
        #expect(form["assertion"] == token && form["client_assertion"] == nil && form["client_secret"] == nil)
        #expect(sent.headers["Authorization"] == "Basic " + Data("agent:s3cret".utf8).base64EncodedString())
    }

    @Test("without jwtBearerAssertion the workload's grant is client credentials, its federated token the client's assertion")
    func clientCredentialsUnchanged() async throws {
        let workload = WorkloadClient(clientID: "agent", authentication: .federatedTokenEnvironment("WORKLOAD_JWT"))
        let sent = try await send(workload, secrets: ["WORKLOAD_JWT": token])
        let form = FakeHTTP.form(sent.body ?? Data())
        #expect(form["grant_type"] == "client_credentials" && form["client_assertion"] == token && form["assertion"] == nil)
    }

    @Test("an unset variable or a token that is no JWT fails before anything is sent")
    func badToken() async throws {
        let workload = WorkloadClient(
            clientID: "agent", authentication: .none, jwtBearerAssertion: .federatedTokenEnvironment("WORKLOAD_JWT"))
        for (secrets, code) in [([String: String](), AuthError.Code.providerNotConfigured), (["WORKLOAD_JWT": "<html>"], .invalidArgument)]
        {
            let transport = StubTransport { _ in answer("{}") }
            let tokens = TokenClient(
                transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
                secrets: StaticSecrets(secrets))
            await #expect(throws: AuthError.self) { _ = try await tokens.workloadGrant(workload, scopes: [], discovery: discovery) }
            do {
                _ = try await tokens.workloadGrant(workload, scopes: [], discovery: discovery)
            } catch let error as AuthError {
                #expect(error.code == code, "\(error.message)")
            }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("login URL --jwt-bearer: the grant asks for the resource with the workload's token; renewal reads the token again")
    func resourceSignInAndRenewal() async throws {
        let grants = ResourceWorkloadSignInTests.Grants()
        let transport = ResourceWorkloadSignInTests.transport(grants)
        let keystore = InMemoryKeystore()
        let clock = FixedClock()
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        func tokens(_ jwt: String) -> TokenClient {
            TokenClient(
                transport: transport, clock: clock, random: SeededRandom(seed: 2), metadataCache: NoMetadataCache(),
                secrets: StaticSecrets(["WORKLOAD_JWT": jwt]))
        }
        let signIn = ResourceWorkloadSignIn(
            transport: transport, configStore: ConfigStore(storage: storage), tokens: tokens(token), keystore: keystore, clock: clock,
            random: SeededRandom(seed: 3), secrets: MemoryRegistrationSecrets())
        let client = WorkloadClient(
            clientID: "agent", authentication: .none, jwtBearerAssertion: .federatedTokenEnvironment("WORKLOAD_JWT"))
        let resource = ResourceWorkloadSignInTests.resource
        let output = try await signIn.run(.init(resource: resource, client: client))
        #expect(output.user.kind == .workload && output.grant.issuer == "https://as.example")
        let form = try #require(grants.forms.first)
        #expect(form["grant_type"] == TokenRequest.Grant.jwtBearerGrantType && form["assertion"] == token)
        #expect(form["resource"] == resource && form["client_id"] == "agent" && grants.authorizations.first == "")
        // The platform rotated the token: the renewal presents the new one.
        let rotated = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyb3RhdGVkIn0.c2ln"
        let renewed = try await ResourceTokens(
            keystore: keystore, configStore: ConfigStore(storage: storage), tokens: tokens(rotated), clock: clock
        )
        .token(for: try #require(URL(string: resource)), forceRefresh: true)
        #expect(renewed.accessToken == "at-2" && renewed.refreshed)
        #expect(grants.forms.count == 2 && grants.forms[1]["assertion"] == rotated && grants.forms[1]["resource"] == resource)
    }

    @Test(
        "the keystore record: grant jwt-bearer with the token's source and the client's, read back as it was; an unknown grant is not guessed"
    )
    func record() throws {
        let clients = [
            WorkloadClient(clientID: "a", authentication: .none, scopes: ["s"], jwtBearerAssertion: .federatedTokenFile("/run/token")),
            WorkloadClient(
                clientID: "b", authentication: .secretEnvironment("B_SECRET"), jwtBearerAssertion: .federatedTokenService(.githubActions)),
            WorkloadClient(clientID: "c", authentication: .certificateFile("/c.pem"), jwtBearerAssertion: .federatedTokenEnvironment("T")),
            WorkloadClient(clientID: "d", authentication: .federatedTokenFile("/run/token")),
        ]
        for client in clients {
            let record = KeystoreRecord.Workload(client)
            #expect(record.grant == (client.jwtBearerAssertion == nil ? nil : "jwt-bearer"))
            #expect(record.domain == client)
        }
        var unknown = KeystoreRecord.Workload(clients[0])
        unknown.grant = "saml2-bearer"
        #expect(unknown.domain == nil)
        var noToken = KeystoreRecord.Workload(clients[1])
        noToken.federatedTokenSource = nil
        #expect(noToken.domain == nil)
        #expect(clients[0].summary == "JWT-bearer grant, federated token from /run/token, public client")
    }
}
