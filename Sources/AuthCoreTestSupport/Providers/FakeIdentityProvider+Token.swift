import AuthCore
import Foundation

/// The token endpoint of the fake: every grant, and the tokens it issues and signs.
extension FakeIdentityProvider {
    func token(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        var form = Self.form(request.body)
        if form["grant_type"] == "client_credentials" { return clientCredentials(request, form, behaviour) }
        if form["grant_type"] == TokenRequest.Grant.jwtBearerGrantType { return jwtBearerGrant(request, form, behaviour) }
        remember(form["code_verifier"])
        if let secret = behaviour.clientSecret {
            if behaviour.secretInBody {
                guard form["client_secret"] == secret else { return oauthError("invalid_client", "bad client secret", status: 401) }
            } else {
                let expected = "Basic " + Data("\(clientID):\(secret)".utf8).base64EncodedString()
                guard request.headers["authorization"] == expected, form["client_secret"] == nil else {
                    return oauthError("invalid_client", "bad client authentication", status: 401)
                }
                form["client_id"] = clientID
            }
        }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = lock.withLock({ codes.removeValue(forKey: code) }) else {
                return oauthError("invalid_grant", "unknown or used code")
            }
            guard form["redirect_uri"] == grant.redirectURI, form["client_id"] == grant.clientID else {
                return oauthError("invalid_grant", "redirect_uri or client_id differs")
            }
            if let challenge = grant.challenge {
                guard FakeHTTP.pkceMatches(verifier: form["code_verifier"], challenge: challenge) else {
                    return oauthError("invalid_grant", "PKCE verification failed")
                }
            }
            return issueTokens(behaviour, nonce: grant.nonce, subject: behaviour.subject, includeIDToken: true)
        case "refresh_token":
            bump("refresh")
            if let error = behaviour.refreshError { return oauthError(error, "refresh refused", status: behaviour.oauthErrorStatus) }
            guard let token = form["refresh_token"], lock.withLock({ refreshTokens.contains(token) }) else {
                return oauthError("invalid_grant", "unknown refresh token")
            }
            var scope: String?
            if behaviour.narrowRotatedRefreshTokens {
                let granted = lock.withLock { narrowedScopes[token] } ?? Self.signInScope
                let grantedSet = Set(granted.split(separator: " "))
                if let asked = form["scope"], !Set(asked.split(separator: " ")).isSubset(of: grantedSet) {
                    return oauthError("invalid_scope", "the refresh token does not grant that scope")
                }
                scope = form["scope"] ?? granted
            }
            if behaviour.rotateRefreshTokens { lock.withLock { _ = refreshTokens.remove(token) } }
            return issueTokens(
                behaviour, nonce: nil, subject: behaviour.refreshedSubject ?? behaviour.subject,
                includeIDToken: behaviour.idTokenOnRefresh, keepRefreshToken: behaviour.rotateRefreshTokens ? nil : token, scope: scope)
        case "urn:ietf:params:oauth:grant-type:device_code", "urn:openid:params:grant-type:ciba":
            bump("device-poll")
            guard let code = form["device_code"] ?? form["auth_req_id"], form["client_id"] == clientID,
                lock.withLock({ deviceCodes.contains(code) })
            else {
                return oauthError("invalid_grant", "unknown device code")
            }
            let answer = lock.withLock { devicePollsLeft.isEmpty ? "approve" : devicePollsLeft.removeFirst() }
            guard answer == "approve" else { return oauthError(answer, nil, status: behaviour.oauthErrorStatus) }
            lock.withLock { _ = deviceCodes.remove(code) }
            return issueTokens(behaviour, nonce: nil, subject: behaviour.subject, includeIDToken: true)
        case TokenExchangeRequest.grantType:
            // RFC 8693: the subject token is kept (`exchangedSubjects`: whose token arrived).
            lock.withLock { exchangedSubjectTokens.append(form["subject_token"] ?? "") }
            return json(
                .object([
                    "access_token": .string("xt-\(UUID().uuidString)"), "token_type": "Bearer", "expires_in": .number(3600),
                    "issued_token_type": .string(TokenExchangeRequest.TokenType.accessToken),
                ]))
        default:
            return oauthError("unsupported_grant_type", nil)
        }
    }

    /// The subject tokens of the token exchanges asked so far (RFC 8693), in order.
    public var exchangedSubjects: [String] { lock.withLock { exchangedSubjectTokens } }

    /// RFC 6749 §4.4: the client authenticates (secret, `private_key_jwt` or a federated
    /// assertion, `WorkloadVerifier`) and gets an access token, no refresh token.
    func clientCredentials(_ request: ReceivedRequest, _ form: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        bump("client_credentials")
        remember(form["client_secret"], form["client_assertion"], request.headers["authorization"])
        let result = lock.withLock {
            WorkloadVerifier.authenticate(
                form: form, authorization: request.headers["authorization"], registrations: behaviour.workloads,
                tokenEndpoint: "\(issuer)/token", seenJTIs: &seenJTIs)
        }
        switch result {
        case .failure(let refusal):
            return oauthError(refusal.error, refusal.description, status: refusal.status)
        case .success:
            let (token, response) = WorkloadVerifier.tokenAnswer(scope: form["scope"], lifetime: behaviour.accessTokenLifetime)
            remember(token)
            return response
        }
    }

    /// RFC 7523 §2.1: a workload's token from a trusted issuer is the grant (`assertion`, once
    /// only, as authgent takes it); the client authenticates as registered, or not at all.
    func jwtBearerGrant(_ request: ReceivedRequest, _ form: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        bump("jwt_bearer")
        remember(form["assertion"], form["client_secret"], form["client_assertion"], request.headers["authorization"])
        let result = lock.withLock {
            WorkloadVerifier.jwtBearerGrant(
                form: form, authorization: request.headers["authorization"], registrations: behaviour.workloads,
                tokenEndpoint: "\(issuer)/token", seenJTIs: &seenJTIs)
        }
        switch result {
        case .failure(let refusal):
            return oauthError(refusal.error, refusal.description, status: refusal.status)
        case .success:
            let (token, response) = WorkloadVerifier.tokenAnswer(scope: form["scope"], lifetime: behaviour.accessTokenLifetime)
            remember(token)
            return response
        }
    }

    /// The scope every sign-in grants.
    static let signInScope = "openid profile email"

    func issueTokens(
        _ behaviour: Behaviour, nonce: String?, subject: String, includeIDToken: Bool, keepRefreshToken: String? = nil, scope: String? = nil
    ) -> HTTPResponse {
        let refreshToken = "rt-" + UUID().uuidString
        lock.withLock {
            _ = refreshTokens.insert(refreshToken)
            if let scope, scope != Self.signInScope { narrowedScopes[refreshToken] = scope }
        }
        var body: [String: JSONValue] = [
            "access_token": .string("at-" + UUID().uuidString + behaviour.accessTokenSuffix),
            "token_type": .string("Bearer"),
            "expires_in": behaviour.accessTokenLifetime,
            "scope": .string(scope ?? Self.signInScope),
        ]
        if keepRefreshToken == nil { body["refresh_token"] = .string(refreshToken) }
        if includeIDToken { body["id_token"] = .string(idToken(behaviour, nonce: nonce, subject: subject)) }
        remember(body["access_token"]?.stringValue, body["refresh_token"]?.stringValue, body["id_token"]?.stringValue)
        if let accessToken = body["access_token"]?.stringValue { lock.withLock { _ = accessTokens.insert(accessToken) } }
        return json(.object(body))
    }

    /// Signs an ID token as this provider would, shaped by `behaviour`.
    public func idToken(_ behaviour: Behaviour, nonce: String?, subject: String) -> String {
        let now = Date().timeIntervalSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(behaviour.idTokenIssuer ?? issuer),
            "sub": .string(subject),
            "aud": behaviour.idTokenAudience ?? .string(clientID),
            "exp": behaviour.expAsString
                ? .string(String(Int(now + behaviour.idTokenExpiresIn))) : .number((now + behaviour.idTokenExpiresIn).rounded()),
            "iat": .number((now - behaviour.idTokenIssuedAgo).rounded()),
        ]
        if let nonce = behaviour.idTokenNonce ?? nonce { claims["nonce"] = .string(nonce) }
        if let azp = behaviour.idTokenAuthorizedParty { claims["azp"] = .string(azp) }
        if let email = behaviour.email {
            claims["email"] = .string(email)
            // `.null`: no `email_verified` claim at all, as some providers send.
            if behaviour.emailVerified != .null { claims["email_verified"] = behaviour.emailVerified }
        }
        if let name = behaviour.name { claims["name"] = .string(name) }
        return sign(claims: .object(claims), behaviour)
    }

    public func sign(claims: JSONValue, _ behaviour: Behaviour) -> String {
        signer.sign(claims: claims, signing: behaviour.signing, unpublishedKey: behaviour.signWithUnpublishedKey)
    }
}
