import AuthCore
import Crypto
import Foundation

extension FakeMicrosoft {
    // MARK: /authorize

    /// Microsoft's loopback rule: `http://localhost` and `http://127.0.0.1` match with any
    /// port; the path must match exactly; anything else must match exactly.
    static func redirectURIMatches(_ requested: String, registered: [String]) -> Bool {
        guard let url = URLComponents(string: requested) else { return false }
        return registered.contains { candidate in
            guard let registered = URLComponents(string: candidate) else { return false }
            if ["localhost", "127.0.0.1"].contains(registered.host ?? ""), registered.scheme == "http" {
                return url.scheme == "http" && url.host == registered.host && url.path == registered.path && url.query == nil
            }
            return requested == candidate
        }
    }

    func authorize(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let behaviour = self.behaviour
        let parameters = FakeHTTP.form(Data((request.query ?? "").utf8))
        lock.withLock { authorizationParameters = parameters }
        remember(parameters["state"], parameters["nonce"], parameters["code_challenge"])
        guard parameters["client_id"] == clientID else {
            return errorPage(700016, "Application with identifier '\(parameters["client_id"] ?? "")' was not found in the directory.")
        }
        guard let redirectURI = parameters["redirect_uri"], Self.redirectURIMatches(redirectURI, registered: behaviour.redirectURIs) else {
            return errorPage(
                50011,
                "The redirect URI '\(parameters["redirect_uri"] ?? "")' specified in the request does not match the redirect URIs configured for the application '\(clientID)'."
            )
        }
        // Microsoft returns a redirect URI without a path with a trailing slash.
        let target = URLComponents(string: redirectURI)?.path.isEmpty == true ? redirectURI + "/" : redirectURI
        let state = parameters["state"].map { [("state", $0)] } ?? []
        func fail(_ error: String, _ code: Int, _ description: String) -> HTTPResponse {
            FakeHTTP.redirect(to: target, [("error", error), ("error_description", "AADSTS\(code): \(description)")] + state)
        }
        guard parameters["response_type"] == "code" else {
            return fail(
                "unsupported_response_type", 700054,
                "response_type '\(parameters["response_type"] ?? "")' is not enabled for the application.")
        }
        let requested = (parameters["scope"] ?? "").split(separator: " ").map(String.init)
        if case .failure(let error) = resource(of: requested, behaviour) { return fail(error.error, error.code, error.description) }
        let account = behaviour.account
        if behaviour.enforceTenantRules, let refusal = Self.tenantRefusal(account: account, tenant: tenant) {
            return fail("invalid_request", 50020, refusal)
        }
        let code = "M.C5" + UUID().uuidString
        lock.withLock {
            codes[code] = Grant(
                account: account, clientID: clientID, redirectURI: redirectURI, challenge: parameters["code_challenge"],
                nonce: parameters["nonce"], consented: requested + behaviour.graphScopes, requested: requested)
        }
        remember(code)
        return FakeHTTP.redirect(to: target, [("code", code)] + state + [("session_state", UUID().uuidString.lowercased())])
    }

    /// Why the real service would not let this account sign in under this tenant path.
    static func tenantRefusal(account: Account, tenant: String) -> String? {
        let personal = account.tenantID == MicrosoftTenant.personalAccountsTenantID
        switch tenant {
        case "common": return nil
        case "organizations" where personal, "consumers" where !personal:
            return
                "User account '\(account.preferredUsername)' from identity provider '\(personal ? "live.com" : "https://sts.windows.net/\(account.tenantID)/")' does not exist in tenant '\(tenant)'."
        case "organizations", "consumers": return nil
        default:
            return account.tenantID == tenant
                ? nil
                : "User account '\(account.preferredUsername)' from identity provider 'https://sts.windows.net/\(account.tenantID)/' does not exist in tenant '\(tenant)' and cannot access the application '\(FakeMicrosoft.contosoTenantID)' in that tenant."
        }
    }

    func errorPage(_ code: Int, _ description: String) -> HTTPResponse {
        HTTPResponse(
            status: 400, headers: ["Content-Type": "text/html; charset=utf-8"],
            body: Data("<html><body><h1>Sign in</h1><p>AADSTS\(code): \(description)</p></body></html>".utf8))
    }

}
