import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Issue 38, item 16: a 403 `insufficient_scope` that names no scope (django-oauth-toolkit 3.4
/// sends none). The step-up then asks for the resource's `scopes_supported` (RFC 9728) that the
/// grant lacks, not for the scopes it already has.
@Suite("Resources: insufficient_scope without a scope")
struct ResourceUnnamedScopeTests {
    static let metadataURL = "https://api.example.com/.well-known/oauth-protected-resource/mcp"

    func transport(metadata: String?) -> StubTransport {
        StubTransport { request in
            switch request.url.absoluteString {
            case "https://api.example.com/mcp/admin":
                return HTTPResponse(status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#])
            case Self.metadataURL:
                guard let metadata else { return HTTPResponse(status: 404) }
                return HTTPResponse(status: 200, body: Data(metadata.utf8))
            default:
                return HTTPResponse(status: 404)
            }
        }
    }

    @Test("the step-up asks for the held scopes and those of scopes_supported the grant lacks, and says the resource named none")
    func lackingFromMetadata() async throws {
        let base = ResourceRequestTests()
        let metadata = #"""
            {"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as.example"],
             "scopes_supported": ["read", "write", "admin"]}
            """#
        let outcome = try await base.request(base.keystore(), transport(metadata: metadata)).run(
            .init(url: URL(string: "https://api.example.com/mcp/admin")!))
        var expected = ResourceRequest.StepUp(
            resource: ResourceRequestTests.resource, scopes: ["read", "write", "admin"], error: "insufficient_scope")
        expected.issuer = "https://as.example"
        expected.providerID = "oidc.as"
        expected.scopeNamed = false
        expected.lacking = ["write", "admin"]
        #expect(outcome == .stepUp(expected))
    }

    @Test("without usable metadata the step-up says the resource named no scope and that nothing is known to lack")
    func noMetadata() async throws {
        let base = ResourceRequestTests()
        let outcome = try await base.request(base.keystore(), transport(metadata: nil)).run(
            .init(url: URL(string: "https://api.example.com/mcp/admin")!))
        var expected = ResourceRequest.StepUp(resource: ResourceRequestTests.resource, scopes: ["read"], error: "insufficient_scope")
        expected.issuer = "https://as.example"
        expected.providerID = "oidc.as"
        expected.scopeNamed = false
        expected.lacking = nil
        #expect(outcome == .stepUp(expected))
    }
}
