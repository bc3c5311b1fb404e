import AuthCore
import Crypto
import Foundation

extension FakeMicrosoft {
    // MARK: /token

    func token(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let behaviour = self.behaviour
        let form = FakeHTTP.form(request.body)
        lock.withLock { tokenRequests.append(form) }
        remember(form["code_verifier"])
        if form["grant_type"] == "client_credentials" { return clientCredentials(request, form: form, tenant: tenant) }
        if form["client_secret"] != nil || request.headers["authorization"] != nil {
            return aadstsError(
                AADSTSError(
                    "invalid_client", 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented."))
        }
        guard form["client_id"] == clientID else {
            return aadstsError(
                AADSTSError(
                    "unauthorized_client", 700016,
                    "Application with identifier '\(form["client_id"] ?? "")' was not found in the directory '\(tenant)'."))
        }
        if let error = behaviour.tokenError { return aadstsError(error) }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = lock.withLock({ codes.removeValue(forKey: code) }) else {
                let used = lock.withLock { usedCodes.contains(form["code"] ?? "") }
                return aadstsError(
                    used
                        ? AADSTSError(
                            "invalid_grant", 54005,
                            "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token."
                        )
                        : AADSTSError("invalid_grant", 9002313, "Invalid request. Request is malformed or invalid."))
            }
            lock.withLock { _ = usedCodes.insert(code) }
            guard form["redirect_uri"] == grant.redirectURI else {
                return aadstsError(
                    AADSTSError(
                        "invalid_grant", 50011,
                        "The redirect URI '\(form["redirect_uri"] ?? "")' specified in the request does not match the redirect URI used to get the authorization code."
                    ))
            }
            if let challenge = grant.challenge, !FakeHTTP.pkceMatches(verifier: form["code_verifier"], challenge: challenge) {
                return aadstsError(
                    AADSTSError(
                        "invalid_grant", 501481,
                        "The Code_Verifier does not match the code_challenge supplied in the authorization request."))
            }
            return issueTokens(grant, requested: grant.requested, includeNonce: true, behaviour)
        case "refresh_token":
            bump("refresh")
            guard let scope = form["scope"], !scope.isEmpty else {
                return aadstsError(
                    AADSTSError("invalid_request", 900144, "The request body must contain the following parameter: 'scope'."))
            }
            guard let token = form["refresh_token"], let grant = lock.withLock({ refreshTokens[token] }) else {
                return aadstsError(AADSTSError.expiredGrant)
            }
            if behaviour.revokeUsedRefreshTokens { lock.withLock { _ = refreshTokens.removeValue(forKey: token) } }
            let requested = scope.split(separator: " ").map(String.init)
            // A resource scope never consented needs an interactive consent first.
            if case .success(let (resource, names)) = resource(of: requested, behaviour),
                !names.allSatisfy({ isConsented($0, of: resource, in: grant, behaviour) })
            {
                return aadstsError(AADSTSError.consentRequired)
            }
            return issueTokens(grant, requested: requested, includeNonce: false, behaviour)
        case "urn:ietf:params:oauth:grant-type:device_code":
            return deviceCodeToken(form, behaviour)
        default:
            return aadstsError(
                AADSTSError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(form["grant_type"] ?? "")'."))
        }
    }

    /// Consented: `.default`, a permission the app is configured with (admin consent), or a
    /// scope consented at the sign-in.
    func isConsented(_ name: String, of resource: String, in grant: Grant, _ behaviour: Behaviour) -> Bool {
        if name == ".default" { return true }
        if resource == graphHost { return behaviour.graphScopes.contains(name) || grant.consented.contains(name) }
        return behaviour.resources[resource]?.contains(name) == true || grant.consented.contains("\(resource)/\(name)")
    }

    /// The one resource the scopes are for (Graph when they name none) and its scopes.
    /// Graph scopes are `User.Read` or `<graph host>/User.Read`; others `api://app/scope`.
    func resource(of scopes: [String], _ behaviour: Behaviour) -> Result<(String, [String]), AADSTSError> {
        let resourceScopes = scopes.filter { !Self.oidcScopes.contains($0) }
        var resources: Set<String> = []
        var names: [String] = []
        for scope in resourceScopes {
            if let slash = scope.range(of: "/", options: .backwards), scope.contains("://") {
                resources.insert(String(scope[..<slash.lowerBound]))
                names.append(String(scope[slash.upperBound...]))
            } else {
                resources.insert(graphHost)
                names.append(scope)
            }
        }
        guard resources.count <= 1 else {
            return .failure(
                AADSTSError(
                    "invalid_scope", 28000,
                    "Provide value for the input parameter scope. The scopes requested are for several resources; one token is for one resource."
                ))
        }
        let resource = resources.first ?? graphHost
        if resource != graphHost, behaviour.resources[resource] == nil {
            return .failure(
                AADSTSError("invalid_resource", 500011, "The resource principal named \(resource) was not found in the tenant."))
        }
        return .success((resource, names))
    }

    func issueTokens(_ grant: Grant, requested: [String], includeNonce: Bool, _ behaviour: Behaviour) -> HTTPResponse {
        guard case .success(let (resource, names)) = resource(of: requested, behaviour) else {
            return aadstsError(AADSTSError("invalid_scope", 70011, "The provided value for the input parameter 'scope' is not valid."))
        }
        var granted: [String]
        if resource == graphHost {
            let asked = names.filter { $0 != ".default" }
            granted = names.contains(".default") || asked.isEmpty ? behaviour.graphScopes + asked : asked
        } else {
            granted = names.contains(".default") ? behaviour.resources[resource] ?? [] : names
            granted = granted.map { "\(resource)/\($0)" }
        }
        var unique: [String] = []
        for scope in granted where !unique.contains(scope) { unique.append(scope) }
        let accessToken = "at-" + UUID().uuidString + behaviour.accessTokenSuffix
        lock.withLock { accessTokens[accessToken] = (grant.account, resource, unique) }
        let oidc = ["openid", "profile", "email"].filter { requested.contains($0) }
        var body: [String: JSONValue] = [
            "token_type": .string("Bearer"),
            "scope": .string((unique + oidc).joined(separator: " ")),
            "expires_in": .number(behaviour.accessTokenLifetime),
            "ext_expires_in": .number(behaviour.accessTokenLifetime),
            "access_token": .string(accessToken),
        ]
        if requested.contains("offline_access") {
            let refreshToken = "rt-" + UUID().uuidString
            var consented = grant
            consented.consented += requested
            lock.withLock { refreshTokens[refreshToken] = consented }
            body["refresh_token"] = .string(refreshToken)
        }
        if requested.contains("openid") {
            body["id_token"] = .string(idToken(for: grant.account, nonce: includeNonce ? grant.nonce : nil, behaviour))
        }
        remember(accessToken, body["refresh_token"]?.stringValue, body["id_token"]?.stringValue)
        return FakeHTTP.json(.object(body))
    }

    /// An ID token as Microsoft v2 issues it for this app.
    public func idToken(for account: Account, nonce: String?, _ behaviour: Behaviour) -> String {
        let now = Date().timeIntervalSince1970.rounded()
        // `sub` is pairwise: per application, never equal to `oid`.
        let sub = Base64URL.encode(SHA256.hash(data: Data("\(clientID):\(account.objectID)".utf8)))
        var claims: [String: JSONValue] = [
            "aud": .string(clientID),
            "iss": .string(behaviour.idTokenIssuer ?? issuer(tenantID: account.tenantID)),
            "iat": .number(now), "nbf": .number(now), "exp": .number(now + 3600),
            "aio": .string("Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY"),
            "oid": .string(account.objectID),
            "preferred_username": .string(account.preferredUsername),
            "rh": .string("0.ARoAv4j5cvGGr0GRqy180BHbR1s3Ucd"),
            "sid": .string(UUID().uuidString.lowercased()),
            "sub": .string(sub),
            "tid": .string(behaviour.idTokenTenantID ?? account.tenantID),
            "uti": .string(String(UUID().uuidString.prefix(22))),
            "ver": .string("2.0"),
        ]
        if let name = account.name { claims["name"] = .string(name) }
        if let email = account.email { claims["email"] = .string(email) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return signer.sign(claims: .object(claims), unpublishedKey: behaviour.signWithUnpublishedKey)
    }

    /// The identity platform's client-credentials grant: a tenant of its own, the app's
    /// secret, certificate (`x5t#S256`) or federated credential, one resource's `.default`.
    func clientCredentials(_ request: ReceivedRequest, form: [String: String], tenant: String) -> HTTPResponse {
        bump("client_credentials")
        remember(form["client_secret"], form["client_assertion"])
        guard !["common", "organizations", "consumers"].contains(tenant) else {
            return aadstsError(
                AADSTSError(
                    "invalid_request", 90009,
                    "Application is requesting a token for itself. This scenario is supported only if resource is specified using the GUID based App Identifier."
                ))
        }
        let behaviour = self.behaviour
        let result = lock.withLock {
            WorkloadVerifier.authenticate(
                form: form, authorization: request.headers["authorization"], registrations: behaviour.workloads,
                tokenEndpoint: "\(host)/\(tenant)/oauth2/v2.0/token", seenJTIs: &seenJTIs)
        }
        switch result {
        case .failure(let refusal):
            return aadstsError(AADSTSError(refusal.error, refusal.aadsts, refusal.description))
        case .success:
            guard let scope = form["scope"], scope.hasSuffix("/.default"), !scope.contains(" ") else {
                return aadstsError(
                    AADSTSError(
                        "invalid_scope", 1002012,
                        "The provided value for scope \(form["scope"] ?? "") is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI)."
                    ))
            }
            if let error = behaviour.tokenError { return aadstsError(error) }
            let (token, response) = WorkloadVerifier.tokenAnswer(scope: nil, lifetime: .number(behaviour.accessTokenLifetime))
            remember(token)
            return response
        }
    }

    /// The error body of Microsoft's token endpoint.
    func aadstsError(_ error: AADSTSError) -> HTTPResponse {
        let trace = UUID().uuidString.lowercased(), correlation = UUID().uuidString.lowercased()
        let description =
            "AADSTS\(error.code): \(error.description.replacingOccurrences(of: "{client}", with: clientID))\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: 2026-11-22 15:04:05Z"
        return FakeHTTP.json(
            .object([
                "error": .string(error.error), "error_description": .string(description),
                "error_codes": .array([.number(Double(error.code))]),
                "timestamp": .string("2026-11-22 15:04:05Z"), "trace_id": .string(trace), "correlation_id": .string(correlation),
                "error_uri": .string("\(host)/error?code=\(error.code)"),
            ]), status: error.error == "invalid_client" ? 401 : 400)
    }

}
