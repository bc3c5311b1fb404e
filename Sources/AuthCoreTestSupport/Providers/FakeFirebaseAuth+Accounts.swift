import AuthCore
import Foundation

/// The Identity Toolkit calls of `FakeFirebaseAuth`: the brokered sign-in and the account rules.
extension FakeFirebaseAuth {
    /// How long a pending token can be used.
    static let pendingTokenLifetime: TimeInterval = 3600

    // MARK: accounts:createAuthUri

    func createAuthURI(_ body: [String: JSONValue]) -> HTTPResponse {
        guard let providerID = body["providerId"]?.stringValue, !providerID.isEmpty else { return Self.error("MISSING_PROVIDER_ID") }
        guard let continueURI = body["continueUri"]?.stringValue, let continueURL = URLComponents(string: continueURI),
            continueURL.scheme == "http" || continueURL.scheme == "https", let host = continueURL.host
        else { return Self.error("MISSING_CONTINUE_URI") }
        // `localhost` is an authorized domain of every project; 127.0.0.1 is not, by default.
        guard behaviour.authorizedDomains.contains(host) else { return Self.error("UNAUTHORIZED_DOMAIN", "\(host) is not authorized") }
        guard let enabled = lock.withLock({ console[providerID] }) else {
            return Self.error("OPERATION_NOT_ALLOWED", "The identity provider configuration is not found.")
        }
        let state = Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255) })
        let nonce = Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255) })
        let sessionID = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        var scopes = ["openid"]
        for scope in (body["oauthScope"]?.stringValue ?? "").split(separator: " ").map(String.init) where !scopes.contains(scope) {
            scopes.append(scope)
        }
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", enabled.clientID), ("redirect_uri", continueURI), ("state", state),
            ("scope", scopes.joined(separator: " ")), ("nonce", nonce),
        ]
        if enabled.formPost { parameters.append(("response_mode", "form_post")) }
        for (name, value) in (body["customParameter"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let value = value.stringValue { parameters.append((name, value)) }
        }
        let tenant = body["tenantId"]?.stringValue
        lock.withLock {
            sessions[sessionID] = AuthSession(
                providerID: providerID, continueURI: continueURI, state: state, nonce: nonce, tenantID: tenant)
        }
        remember(state, nonce, sessionID)
        return FakeHTTP.json(
            .object([
                "kind": "identitytoolkit#CreateAuthUriResponse",
                "authUri": .string("\(enabled.provider.issuer)/authorize?\(FormURLEncoding.encode(parameters))"),
                "providerId": .string(providerID), "sessionId": .string(sessionID),
            ]))
    }

    // MARK: accounts:signInWithIdp

    func signInWithIdP(_ body: [String: JSONValue]) -> HTTPResponse {
        guard let requestURI = body["requestUri"]?.stringValue, !requestURI.isEmpty else { return Self.error("MISSING_REQUEST_URI") }
        let returnCredential = body["returnIdpCredential"]?.boolValue ?? false
        let credential: IdPCredential
        switch idpCredential(body, requestURI: requestURI) {
        case .failure(let failure): return failure.response
        case .success(let value): credential = value
        }
        var linking: FirebaseSession?
        if body["idToken"] != nil {
            switch session(ofIDToken: body["idToken"]?.stringValue) {
            case .failure(let failure): return failure.response
            case .success(let session): linking = session
            }
        }
        let tenant = body["tenantId"]?.stringValue
        let (owner, emailOwner) = lock.withLock { () -> (Account?, Account?) in
            let owner = accounts.values.first { account in
                account.identities.contains { $0.providerID == credential.providerID && $0.rawID == credential.rawID }
            }
            let email = credential.email?.lowercased()
            let emailOwner = email.flatMap { email in
                accounts.values.first { account in
                    account.tenantID == tenant
                        && (account.email?.lowercased() == email || account.identities.contains { $0.email?.lowercased() == email })
                }
            }
            return (owner, emailOwner)
        }
        if let linking {
            if let owner, owner.localID != linking.localID {
                return conflict("FEDERATED_USER_ID_ALREADY_LINKED", credential, returnCredential: returnCredential)
            }
            if owner == nil, let account = user(linking.localID),
                account.identities.contains(where: { $0.providerID == credential.providerID })
            {
                return Self.error("PROVIDER_ALREADY_LINKED")
            }
            if owner == nil, credential.emailVerified, let emailOwner, emailOwner.localID != linking.localID {
                return conflict("EMAIL_EXISTS", credential, returnCredential: returnCredential)
            }
            lock.withLock {
                guard var account = accounts[linking.localID] else { return }
                if owner == nil { account.identities.append(identity(of: credential)) }
                if account.email == nil { account.email = credential.email; account.emailVerified = credential.emailVerified }
                if account.displayName == nil { account.displayName = credential.displayName }
                accounts[linking.localID] = account
            }
            let tokens = startSession(for: linking.localID, provider: linking.signInProvider, authTime: linking.authTime)
            return success(linking.localID, credential, tokens: tokens, isNewUser: false)
        }
        let now = Date()
        if let owner {
            if owner.disabled { return Self.error("USER_DISABLED", "The user account has been disabled by an administrator.") }
            lock.withLock { accounts[owner.localID]?.lastLoginAt = now }
            let tokens = startSession(for: owner.localID, provider: credential.providerID, authTime: now)
            return success(owner.localID, credential, tokens: tokens, isNewUser: false)
        }
        if body["autoCreate"]?.boolValue == false { return Self.error("USER_NOT_FOUND") }
        if credential.emailVerified, let emailOwner {
            return needConfirmation(credential, existing: emailOwner, returnCredential: returnCredential)
        }
        let localID =
            behaviour.nextLocalID
            ?? Base64URL.encode((0..<21).map { _ in UInt8.random(in: 0...255) }).replacingOccurrences(of: "-", with: "A")
            .replacingOccurrences(of: "_", with: "B")
        let account = Account(
            localID: localID, email: credential.email, emailVerified: credential.emailVerified, displayName: credential.displayName,
            tenantID: tenant, identities: [identity(of: credential)], createdAt: now, lastLoginAt: now)
        lock.withLock { accounts[localID] = account }
        let tokens = startSession(for: localID, provider: credential.providerID, authTime: now)
        return success(localID, credential, tokens: tokens, isNewUser: true)
    }

    /// The identity the request proves: a pending token, an ID token in `postBody`, or the
    /// redirect of a `createAuthUri` session, whose code is exchanged at the provider.
    private func idpCredential(_ body: [String: JSONValue], requestURI: String) -> Result<IdPCredential, HTTPFailure> {
        if let pendingToken = body["pendingToken"]?.stringValue {
            guard let credential = lock.withLock({ pending[pendingToken] }),
                Date().timeIntervalSince(credential.createdAt) < Self.pendingTokenLifetime
            else { return .failure(HTTPFailure("INVALID_PENDING_TOKEN")) }
            return .success(credential)
        }
        var parameters = FakeHTTP.form(Data((URLComponents(string: requestURI)?.percentEncodedQuery ?? "").utf8))
        if let postBody = body["postBody"]?.stringValue {
            for (name, value) in FakeHTTP.form(Data(postBody.utf8)) { parameters[name] = value }
        }
        if let idToken = parameters["id_token"], body["sessionId"] == nil {
            return idTokenCredential(idToken, providerID: parameters["providerId"], nonce: parameters["nonce"])
        }
        guard let sessionID = body["sessionId"]?.stringValue, let session = lock.withLock({ sessions[sessionID] }) else {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The sign-in session is unknown or was used."))
        }
        let base = requestURI.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard base == session.continueURI.split(separator: "?", maxSplits: 1).first.map(String.init) else {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The requestUri does not match the continueUri of the session."))
        }
        guard parameters["state"] == session.state else {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The state in the response does not match the request."))
        }
        if let error = parameters["error"] {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The identity provider answered \(error)."))
        }
        guard let code = parameters["code"] else { return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "No authorization code.")) }
        _ = lock.withLock { sessions.removeValue(forKey: sessionID) }
        guard let enabled = lock.withLock({ console[session.providerID] }) else {
            return .failure(HTTPFailure("OPERATION_NOT_ALLOWED", "The identity provider configuration is not found."))
        }
        return exchange(code, redirectURI: session.continueURI, providerID: session.providerID, nonce: session.nonce, at: enabled)
    }

    /// The code exchange with the client id and secret of the console (RFC 6749 §4.1.3).
    private func exchange(_ code: String, redirectURI: String, providerID: String, nonce: String, at enabled: ConsoleProvider)
        -> Result<IdPCredential, HTTPFailure>
    {
        var headers: [String: String] = [:]
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
        if let secret = enabled.clientSecret {
            headers["Authorization"] = "Basic " + Data("\(enabled.clientID):\(secret)".utf8).base64EncodedString()
        } else {
            form.append(("client_id", enabled.clientID))
        }
        guard let url = URL(string: "\(enabled.provider.issuer)/token"),
            let response = Self.blockingSend(.form(url, form, headers: headers)), response.status == 200,
            let tokens = JSONValue.object(from: response.body), let idToken = tokens["id_token"]?.stringValue,
            let claims = Self.claims(of: idToken)
        else { return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The identity provider refused the code exchange.")) }
        guard claims["iss"]?.stringValue == enabled.provider.issuer, claims["aud"]?.stringValue == enabled.clientID else {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The ID token's issuer or audience is not the provider's."))
        }
        guard claims["nonce"]?.stringValue == nonce else { return .failure(HTTPFailure("MISSING_OR_INVALID_NONCE")) }
        remember(tokens["access_token"]?.stringValue, idToken)
        return .success(
            IdPCredential(
                providerID: providerID, rawID: claims["sub"]?.stringValue ?? "", email: claims["email"]?.stringValue,
                emailVerified: claims["email_verified"]?.lenientBool ?? false, displayName: claims["name"]?.stringValue,
                accessToken: tokens["access_token"]?.stringValue, accessTokenExpiresIn: tokens["expires_in"]?.numberValue, idToken: idToken,
                refreshToken: tokens["refresh_token"]?.stringValue, createdAt: Date()))
    }

    /// An ID token obtained elsewhere (`postBody` = `id_token=…&providerId=…[&nonce=RAW]`).
    /// Microsoft's is refused: Firebase takes Microsoft only through its own code exchange.
    private func idTokenCredential(_ idToken: String, providerID: String?, nonce: String?) -> Result<IdPCredential, HTTPFailure> {
        guard let providerID, let enabled = lock.withLock({ console[providerID] }) else {
            return .failure(HTTPFailure("OPERATION_NOT_ALLOWED", "The identity provider configuration is not found."))
        }
        guard providerID != "microsoft.com" else {
            return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "Microsoft ID tokens are not supported; use the redirect flow."))
        }
        guard let claims = Self.claims(of: idToken), enabled.provider.signer.verifies(idToken),
            claims["iss"]?.stringValue == enabled.provider.issuer, claims["aud"]?.stringValue == enabled.clientID,
            let exp = claims["exp"]?.numberValue, exp > Date().timeIntervalSince1970
        else { return .failure(HTTPFailure("INVALID_IDP_RESPONSE", "The ID token could not be verified.")) }
        if let expected = claims["nonce"]?.stringValue, expected != nonce { return .failure(HTTPFailure("MISSING_OR_INVALID_NONCE")) }
        return .success(
            IdPCredential(
                providerID: providerID, rawID: claims["sub"]?.stringValue ?? "", email: claims["email"]?.stringValue,
                emailVerified: claims["email_verified"]?.lenientBool ?? false, displayName: claims["name"]?.stringValue,
                accessToken: nil, accessTokenExpiresIn: nil, idToken: idToken, refreshToken: nil, createdAt: Date()))
    }

    private func identity(of credential: IdPCredential) -> Identity {
        Identity(
            providerID: credential.providerID, rawID: credential.rawID, email: credential.email, emailVerified: credential.emailVerified,
            displayName: credential.displayName)
    }

    /// The provider's part of an answer (`returnIdpCredential`).
    private func idpFields(_ credential: IdPCredential) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "providerId": .string(credential.providerID), "federatedId": .string(credential.rawID), "rawId": .string(credential.rawID),
            "emailVerified": .bool(credential.emailVerified),
        ]
        if let email = credential.email { fields["email"] = .string(email) }
        if let name = credential.displayName { fields["displayName"] = .string(name) }
        if let token = credential.accessToken { fields["oauthAccessToken"] = .string(token) }
        if let expiresIn = credential.accessTokenExpiresIn { fields["oauthExpireIn"] = .number(expiresIn) }
        if let token = credential.idToken { fields["oauthIdToken"] = .string(token) }
        if let token = credential.refreshToken { fields["oauthRefreshToken"] = .string(token) }
        let userInfo: [String: JSONValue] = ["sub": .string(credential.rawID), "email": credential.email.map(JSONValue.string) ?? .null]
        if let data = try? JSONEncoder().encode(JSONValue.object(userInfo)) {
            fields["rawUserInfo"] = .string(String(decoding: data, as: UTF8.self))
        }
        return fields
    }

    private func savePending(_ credential: IdPCredential) -> String {
        let token = "pt-" + Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        lock.withLock { pending[token] = credential }
        remember(token)
        return token
    }

    private func success(_ localID: String, _ credential: IdPCredential, tokens: (idToken: String, refreshToken: String), isNewUser: Bool)
        -> HTTPResponse
    {
        var fields = idpFields(credential)
        let account = user(localID)
        fields["kind"] = "identitytoolkit#VerifyAssertionResponse"
        fields["localId"] = .string(localID)
        fields["idToken"] = .string(tokens.idToken)
        fields["refreshToken"] = .string(tokens.refreshToken)
        fields["expiresIn"] = .string(String(Int(behaviour.idTokenLifetime)))
        fields["isNewUser"] = .bool(isNewUser)
        if let email = account?.email { fields["email"] = .string(email) }
        if let tenant = account?.tenantID { fields["tenantId"] = .string(tenant) }
        return FakeHTTP.json(.object(fields))
    }

    /// `FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`: with `returnIdpCredential`, an HTTP 200
    /// carrying `errorMessage` and the credential (with a `pendingToken`); else a 400.
    private func conflict(_ code: String, _ credential: IdPCredential, returnCredential: Bool) -> HTTPResponse {
        guard returnCredential else { return Self.error(code) }
        var fields = idpFields(credential)
        fields["errorMessage"] = .string(code)
        fields["pendingToken"] = .string(savePending(credential))
        return FakeHTTP.json(.object(fields))
    }

    /// One account per email: an HTTP 200 with `needConfirmation`, no session, a `pendingToken`.
    private func needConfirmation(_ credential: IdPCredential, existing: Account, returnCredential: Bool) -> HTTPResponse {
        var fields: [String: JSONValue] = returnCredential ? idpFields(credential) : ["providerId": .string(credential.providerID)]
        fields["kind"] = "identitytoolkit#VerifyAssertionResponse"
        fields["needConfirmation"] = .bool(true)
        fields["email"] = .string(credential.email ?? "")
        fields["verifiedProvider"] = .array(existing.identities.map { .string($0.providerID) })
        fields["pendingToken"] = .string(savePending(credential))
        return FakeHTTP.json(.object(fields))
    }

    // MARK: accounts:lookup, update, delete; v2/accounts:revokeToken

    func lookup(_ body: [String: JSONValue]) -> HTTPResponse {
        switch session(ofIDToken: body["idToken"]?.stringValue) {
        case .failure(let failure): return failure.response
        case .success(let session):
            guard let account = user(session.localID) else { return Self.error("USER_NOT_FOUND") }
            return FakeHTTP.json(.object(["kind": "identitytoolkit#GetAccountInfoResponse", "users": .array([userInfo(account)])]))
        }
    }

    func updateAccount(_ body: [String: JSONValue]) -> HTTPResponse {
        switch session(ofIDToken: body["idToken"]?.stringValue) {
        case .failure(let failure): return failure.response
        case .success(let session):
            let remove = (body["deleteProvider"]?.arrayValue ?? []).compactMap(\.stringValue)
            let account = lock.withLock { () -> Account? in
                accounts[session.localID]?.identities.removeAll { remove.contains($0.providerID) }
                return accounts[session.localID]
            }
            guard let account else { return Self.error("USER_NOT_FOUND") }
            guard case .object(var fields) = userInfo(account) else { return Self.error("INTERNAL_ERROR") }
            fields["kind"] = "identitytoolkit#SetAccountInfoResponse"
            return FakeHTTP.json(.object(fields))
        }
    }

    func deleteAccount(_ body: [String: JSONValue]) -> HTTPResponse {
        switch session(ofIDToken: body["idToken"]?.stringValue) {
        case .failure(let failure): return failure.response
        case .success(let session):
            let age = Date().timeIntervalSince(session.authTime)
            guard age <= behaviour.recentLoginWindow else { return Self.error("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") }
            lock.withLock {
                _ = accounts.removeValue(forKey: session.localID)
                refreshTokens = refreshTokens.filter { $0.value.localID != session.localID }
            }
            return FakeHTTP.json(.object(["kind": "identitytoolkit#DeleteAccountResponse"]))
        }
    }

    func revokeToken(_ body: [String: JSONValue]) -> HTTPResponse {
        switch session(ofIDToken: body["idToken"]?.stringValue) {
        case .failure(let failure): return failure.response
        case .success:
            guard let providerID = body["providerId"]?.stringValue, let token = body["token"]?.stringValue,
                ["REFRESH_TOKEN", "ACCESS_TOKEN", "CODE"].contains(body["tokenType"]?.stringValue ?? "")
            else { return Self.error("INVALID_REQUEST") }
            lock.withLock { revokedProviderTokens.append((providerID, token)) }
            return FakeHTTP.json(.object([:]))
        }
    }

    private func userInfo(_ account: Account) -> JSONValue {
        var fields: [String: JSONValue] = [
            "localId": .string(account.localID), "emailVerified": .bool(account.emailVerified),
            "createdAt": .string(String(Int(account.createdAt.timeIntervalSince1970 * 1000))),
            "lastLoginAt": .string(String(Int(account.lastLoginAt.timeIntervalSince1970 * 1000))),
            "providerUserInfo": .array(
                account.identities.map { identity in
                    var info: [String: JSONValue] = [
                        "providerId": .string(identity.providerID), "rawId": .string(identity.rawID),
                        "federatedId": .string(identity.rawID),
                    ]
                    if let email = identity.email { info["email"] = .string(email) }
                    if let name = identity.displayName { info["displayName"] = .string(name) }
                    return .object(info)
                }),
        ]
        if let email = account.email { fields["email"] = .string(email) }
        if let name = account.displayName { fields["displayName"] = .string(name) }
        if account.disabled { fields["disabled"] = .bool(true) }
        if let tenant = account.tenantID { fields["tenantId"] = .string(tenant) }
        return .object(fields)
    }

    // MARK: HTTP to the provider

    /// Sends a request from a handler's own thread (never the cooperative pool) and waits.
    static func blockingSend(_ request: HTTPRequest) -> HTTPResponse? {
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            // The fake service's own exchange with the provider, not authctl's.
            box.set(try? await CurlTransport(timeout: 10, environment: [:]).send(request.handedOver(to: "the fake's provider")))
            done.signal()
        }
        done.wait()
        return box.get()
    }
}

private final class ResponseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var response: HTTPResponse?
    func set(_ value: HTTPResponse?) { lock.withLock { response = value } }
    func get() -> HTTPResponse? { lock.withLock { response } }
}
