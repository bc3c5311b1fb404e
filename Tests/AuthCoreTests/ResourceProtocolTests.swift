import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The messages of protected resources (docs/resources.md), parsed without I/O.
@Suite("Resources: identifiers, metadata, challenges, registration")
struct ResourceProtocolTests {
    @Test("a resource identifier drops query and fragment, lowers scheme and host, and keeps the path")
    func identifier() throws {
        #expect(try ResourceIdentifier(parsing: "HTTPS://API.Example.com/mcp?x=1#f").description == "https://api.example.com/mcp")
        #expect(try ResourceIdentifier(parsing: "https://api.example.com/").description == "https://api.example.com")
        #expect(try ResourceIdentifier(parsing: "http://127.0.0.1:8080/mcp").description == "http://127.0.0.1:8080/mcp")
    }

    @Test("plain http off loopback, user info and non-URLs are refused")
    func identifierRefusals() {
        #expect(throws: AuthError.self) { try ResourceIdentifier(parsing: "http://api.example.com/mcp") }
        #expect(throws: AuthError.self) { try ResourceIdentifier(parsing: "https://user:pw@api.example.com/mcp") }
        #expect(throws: AuthError.self) { try ResourceIdentifier(parsing: "not a url") }
        #expect(throws: AuthError.self) { try ResourceIdentifier(parsing: "http://127.attacker.example/mcp") }
    }

    @Test("RFC 9728 §3.1: the well-known part goes between the host and the path")
    func metadataURL() throws {
        #expect(
            try ResourceIdentifier(parsing: "https://api.example.com/mcp").metadataURL?.absoluteString
                == "https://api.example.com/.well-known/oauth-protected-resource/mcp")
        #expect(
            try ResourceIdentifier(parsing: "https://api.example.com").metadataURL?.absoluteString
                == "https://api.example.com/.well-known/oauth-protected-resource")
    }

    @Test("a resource covers its own path and below it at a slash, on its own origin only")
    func covers() throws {
        let mcp = try ResourceIdentifier(parsing: "https://api.example.com/mcp")
        #expect(mcp.covers(URL(string: "https://api.example.com/mcp")!))
        #expect(mcp.covers(URL(string: "https://api.example.com/mcp/tools?x=1")!))
        #expect(!mcp.covers(URL(string: "https://api.example.com/mcpx")!))
        #expect(!mcp.covers(URL(string: "https://api.example.com/other")!))
        #expect(!mcp.covers(URL(string: "https://api.example.com:444/mcp")!))
        #expect(!mcp.covers(URL(string: "https://evil.example/mcp")!))
        #expect(try ResourceIdentifier(parsing: "https://api.example.com").covers(URL(string: "https://api.example.com/any")!))
    }

    @Test("the longest matching resource's grant is chosen")
    func longestMatch() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        var user = User(
            uid: "u", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now, lastAuthAt: now,
            lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(resource: "https://api.example.com", issuer: "https://as", providerID: "oidc.as", grantedAt: now, tokens: nil))
        user.store(
            ResourceGrant(resource: "https://api.example.com/mcp", issuer: "https://as", providerID: "oidc.as", grantedAt: now, tokens: nil)
        )
        #expect(user.resourceGrant(for: URL(string: "https://api.example.com/mcp/x")!)?.resource == "https://api.example.com/mcp")
        #expect(user.resourceGrant(for: URL(string: "https://api.example.com/other")!)?.resource == "https://api.example.com")
        #expect(user.resourceGrant(for: URL(string: "https://elsewhere.example/mcp")!) == nil)
        user.store(
            ResourceGrant(resource: "https://api.example.com/mcp", issuer: "https://as", providerID: "oidc.as", grantedAt: now, tokens: nil)
        )
        #expect(user.resourceGrants.count == 2, "one grant per (issuer, resource)")
    }

    func metadata(_ json: String) throws -> ResourceMetadata {
        try ResourceMetadata.parse(
            Data(json.utf8), expected: try ResourceIdentifier(parsing: "https://api.example.com/mcp"),
            source: URL(string: "https://api.example.com/.well-known/oauth-protected-resource/mcp")!)
    }

    @Test("resource metadata is read when it names this resource")
    func metadataRead() throws {
        let read = try metadata(
            #"{"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as.example"], "scopes_supported": ["read", "write"]}"#
        )
        #expect(read.authorizationServers == ["https://as.example"])
        #expect(read.scopesSupported == ["read", "write"])
    }

    @Test("RFC 9728 §3.3: metadata naming another resource is refused")
    func metadataOfAnotherResource() {
        #expect(throws: AuthError.self) {
            try metadata(#"{"resource": "https://evil.example/mcp", "authorization_servers": ["https://as.example"]}"#)
        }
    }

    @Test("metadata without servers, with control characters or wrong types is refused")
    func metadataRefusals() {
        #expect(throws: AuthError.self) { try metadata(#"{"resource": "https://api.example.com/mcp"}"#) }
        #expect(throws: AuthError.self) {
            try metadata(#"{"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as\u001b.example"]}"#)
        }
        #expect(throws: AuthError.self) {
            try metadata(#"{"resource": "https://api.example.com/mcp", "authorization_servers": "https://as"}"#)
        }
        #expect(throws: AuthError.self) { try metadata("[]") }
    }

    @Test("a Bearer challenge: its parameters, quoted and escaped, and several challenges in one header")
    func challenges() {
        let parsed = BearerChallenge.parse(
            #"Basic realm="x", Bearer error="insufficient_scope", scope="read write", resource_metadata="https://r/.well-known/oauth-protected-resource", error_description="say \"more\"""#
        )
        #expect(parsed.count == 1)
        #expect(parsed.first?.error == "insufficient_scope")
        #expect(parsed.first?.scopes == ["read", "write"])
        #expect(parsed.first?.resourceMetadata == "https://r/.well-known/oauth-protected-resource")
        #expect(parsed.first?.parameters["error_description"] == #"say "more""#)
        let stepUp = BearerChallenge.parse(#"Bearer error="insufficient_user_authentication", acr_values="urn:mfa", max_age=300"#)
        #expect(stepUp.first?.acrValues == "urn:mfa")
        #expect(stepUp.first?.maxAge == 300)
        #expect(BearerChallenge.parse("DPoP algs=\"ES256\"").first?.scheme == "DPoP")
        #expect(BearerChallenge.parse("Bearer").first?.parameters == [:])
        #expect(BearerChallenge.parse(#"Bearer error="unterminated"#).isEmpty)
        #expect(BearerChallenge.parse(String(repeating: "a", count: 10_000)).isEmpty)
    }

    @Test("the server's metadata locations in the MCP spec's order: RFC 8414 §3.1's, OpenID discovery's path-inserted, then appended")
    func serverLocations() {
        #expect(
            AuthorizationServerMetadata.locations(of: "https://as.example/tenant").map(\.absoluteString) == [
                "https://as.example/.well-known/oauth-authorization-server/tenant",
                "https://as.example/.well-known/openid-configuration/tenant",
                "https://as.example/tenant/.well-known/openid-configuration",
            ])
        #expect(
            AuthorizationServerMetadata.locations(of: "https://as.example").map(\.absoluteString) == [
                "https://as.example/.well-known/oauth-authorization-server", "https://as.example/.well-known/openid-configuration",
            ])
    }

    static let serverDocument = #"""
        {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token",
         "jwks_uri": "https://as.example/jwks", "registration_endpoint": "https://as.example/register", "scopes_supported": ["read", "openid"],
         "client_id_metadata_document_supported": true}
        """#

    @Test("the server's metadata: its issuer exactly, its registration endpoint and scopes")
    func serverMetadata() throws {
        let source = URL(string: "https://as.example/.well-known/oauth-authorization-server")!
        let read = try AuthorizationServerMetadata.parse(Data(Self.serverDocument.utf8), issuer: "https://as.example", source: source)
        #expect(read.registrationEndpoint?.absoluteString == "https://as.example/register")
        #expect(read.scopesSupported == ["read", "openid"])
        #expect(read.clientIDMetadataDocumentSupported)
        #expect(throws: AuthError.self) {
            try AuthorizationServerMetadata.parse(Data(Self.serverDocument.utf8), issuer: "https://as.example/", source: source)
        }
    }

    @Test("RFC 8414: metadata without jwks_uri (optional there; an MCP server's issues no ID token) is usable")
    func serverMetadataWithoutKeys() throws {
        let source = URL(string: "https://as.example/.well-known/oauth-authorization-server")!
        let document = #"""
            {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize",
             "token_endpoint": "https://as.example/token", "code_challenge_methods_supported": ["S256"]}
            """#
        let read = try AuthorizationServerMetadata.parse(Data(document.utf8), issuer: "https://as.example", source: source)
        #expect(read.document.jwksURI == nil)
        #expect(read.document.tokenEndpoint.absoluteString == "https://as.example/token")
        // A jwks_uri that is there is still checked as any endpoint.
        let plain = document.replacingOccurrences(
            of: "\"token_endpoint\"", with: "\"jwks_uri\": \"http://as.example/jwks\", \"token_endpoint\"")
        #expect(throws: AuthError.self) {
            try AuthorizationServerMetadata.parse(Data(plain.utf8), issuer: "https://as.example", source: source)
        }
        // OpenID Connect Discovery §3 requires it: a configured provider's document without it is refused at once.
        let openID = URL(string: "https://as.example/.well-known/openid-configuration")!
        #expect(throws: AuthError.self) {
            try DiscoveryDocument.parse(Data(document.utf8), expectedIssuer: "https://as.example", source: openID)
        }
    }

    @Test("RFC 7591: a public native client with loopback redirect URIs is asked for")
    func registrationRequest() throws {
        let request = ClientRegistration(endpoint: URL(string: "https://as.example/register")!, redirectURIs: ["http://127.0.0.1/callback"])
            .httpRequest
        let body = try #require(JSONValue.object(from: request.body ?? Data()))
        #expect(body["application_type"] == .string("native"))
        #expect(body["token_endpoint_auth_method"] == .string("none"))
        #expect(body["redirect_uris"] == .array([.string("http://127.0.0.1/callback")]))
        #expect(body["grant_types"] == .array([.string("authorization_code"), .string("refresh_token")]))
        #expect(request.method == "POST")
    }

    @Test("a registration answer is checked like any provider answer")
    func registrationAnswer() throws {
        let registration = ClientRegistration(endpoint: URL(string: "https://as.example/register")!, redirectURIs: [])
        func answer(_ json: String, status: Int = 201) throws -> ClientRegistration.Registered {
            try registration.registered(HTTPResponse(status: status, body: Data(json.utf8)))
        }
        let good = try answer(
            #"{"client_id": "abc", "token_endpoint_auth_method": "none", "registration_access_token": "rat", "registration_client_uri": "https://as.example/register/abc"}"#
        )
        #expect(good.clientID == "abc")
        #expect(good.registrationAccessToken == "rat")
        #expect(throws: AuthError.self) { try answer(#"{"client_id": "abc", "token_endpoint_auth_method": "client_secret_basic"}"#) }
        // A secret the server issued is taken (RegisteredClientSecretTests), sent by Basic when it names no method.
        #expect(try answer(#"{"client_id": "abc", "client_secret": "s"}"#).authMethod == "client_secret_basic")
        #expect(throws: AuthError.self) { try answer(#"{"client_id": "a\u0007bc"}"#) }
        #expect(throws: AuthError.self) { try answer(#"{"client_id": 42}"#) }
        #expect(throws: AuthError.self) { try answer(#"{"client_id": "abc", "registration_client_uri": "https://evil.example/x"}"#) }
        #expect(throws: AuthError.self) { try answer(#"{"error": "invalid_client_metadata"}"#, status: 400) }
    }
}
