import Testing

@testable import CachedTokenCore

/// `token`'s one hand-parsed grammar (`TokenForm`) and the forms the token front answers
/// (`CachedTokenRequest`); TokenParserAgreementTests holds the full program's use of the same
/// grammar to ArgumentParser.
@Suite struct CachedTokenRequestTests {
    @Test("the front answers its forms, each option also as --name=value")
    func answered() throws {
        let request = try #require(
            CachedTokenRequest.parse(["token", "--keystore", "/k", "--config=/c", "--min-ttl", "120", "--format=kubectl-exec", "microsoft"])
        )
        #expect(request.keystore == "/k")
        #expect(request.config == "/c")
        #expect(request.minimumTTL == 120)
        #expect(request.format == .kubectlExec)
        #expect(request.provider == "microsoft.com")
        #expect(request.printsIDToken)
        #expect(CachedTokenRequest.parse(["token"]) == CachedTokenRequest())
        #expect(CachedTokenRequest.parse(["token", "--id-token", "oidc.corp"])?.provider == "oidc.corp")
    }

    @Test(
        "everything else is handed over",
        arguments: [
            ["token", "--json"], ["token", "-v"], ["token", "--user", "ada"], ["token", "--scope", "openid"],
            ["token", "--access-token"], ["token", "--force-refresh"], ["token", "--id-token=yes"], ["token", "--min-ttl", "+5"],
            ["token", "--min-ttl", "86401"], ["token", "--format", "json"], ["token", "--keystore"], ["token", "--keystore", "-k"],
            ["token", "--keystore", "caf\u{E9}"], ["token", "google"], ["token", "oidc.A"], ["token", "microsoft", "apple"],
            ["token", "--"], ["token", ""], ["login"], [],
        ])
    func handedOver(_ arguments: [String]) {
        #expect(CachedTokenRequest.parse(arguments) == nil)
    }

    @Test("the grammar: values judged by the caller, flags without values, --id-token with --access-token refused")
    func grammar() throws {
        let all = try #require(
            TokenForm.parse(["--json", "-v", "-q", "--user=ada", "--scope", "a", "--scope=b", "--force-refresh", "p"]) { _, _ in true })
        #expect(all.json && all.verbose && all.quiet && all.forceRefresh)
        #expect(all.user == "ada")
        #expect(all.scopes == ["a", "b"])
        #expect(all.provider == "p")
        #expect(TokenForm.parse(["--min-ttl", "x", "--min-ttl", "5"]) { option, value in value != "x" } == nil)
        #expect(TokenForm.parse(["--json=1"]) { _, _ in true } == nil)
        #expect(TokenForm.parse(["--id-token", "--access-token"]) { _, _ in true } == nil)
        #expect(TokenForm.parse(["-vq"]) { _, _ in true } == nil)
    }

    @Test("the answer's rules: a bearer token valid for more than --min-ttl and a second; a uid's syntax")
    func rules() {
        #expect(CachedTokenAnswer.isValidWithSpare(1000, minimumTTL: 60, now: 938))
        #expect(!CachedTokenAnswer.isValidWithSpare(1000, minimumTTL: 60, now: 939))
        #expect(CachedTokenAnswer.isValidWithSpare(nil, minimumTTL: 60, now: 0))
        #expect(CachedTokenAnswer.isBearer("Bearer"))
        #expect(!CachedTokenAnswer.isBearer("DPoP"))
        #expect(!CachedTokenAnswer.isBearer("B\u{E9}arer"))
        #expect(UIDSyntax.isUID("uid-Ada_1"))
        #expect(!UIDSyntax.isUID(""))
        #expect(!UIDSyntax.isUID(String(repeating: "a", count: 129)))
        #expect(!UIDSyntax.isUID("a b"))
    }
}
