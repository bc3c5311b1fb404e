import AuthCore
import Foundation

/// The authorization endpoint (code, implicit) and the device authorization (RFC 8628) of the fake.
extension FakeIdentityProvider {
    func authorize(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        let parameters = Self.form(Data((request.query ?? "").utf8))
        lock.withLock { authorizationParameters = parameters }
        remember(parameters["state"], parameters["nonce"], parameters["code_challenge"])
        if parameters["response_type"] == "id_token" { return implicitAuthorize(parameters, behaviour) }
        guard let redirectURI = parameters["redirect_uri"], let state = parameters["state"],
            parameters["client_id"] == clientID, parameters["response_type"] == "code"
        else {
            return HTTPResponse(status: 400, body: Data("bad authorization request".utf8))
        }
        if behaviour.refuseRedirectURI {
            return HTTPResponse(
                status: 400, headers: ["Content-Type": "text/html"],
                body: Data(
                    "<html><body><h1>Error 400: redirect_uri_mismatch</h1><p>The redirect URI in the request does not match the ones registered for the client.</p></body></html>"
                        .utf8))
        }
        var response: [(String, String)] = [("state", behaviour.forgedState ?? state)]
        if let error = behaviour.authorizeError {
            response.insert(("error", error), at: 0)
            if let description = behaviour.authorizeErrorDescription { response.append(("error_description", description)) }
        } else {
            let code = "code-" + UUID().uuidString
            lock.withLock {
                codes[code] = (redirectURI, parameters["code_challenge"], parameters["nonce"], parameters["client_id"] ?? "")
            }
            response.insert(("code", code), at: 0)
            remember(code)
        }
        if behaviour.sendIssuerOnRedirect || behaviour.issuerOnRedirect != nil {
            response.append(("iss", behaviour.issuerOnRedirect ?? issuer))
        }
        // OAuth 2.0 Form Post Response Mode, when asked (as Apple's and Microsoft's servers do).
        if parameters["response_mode"] == "form_post" { return FakeHTTP.autoPost(to: redirectURI, response) }
        return FakeHTTP.redirect(to: redirectURI, response)
    }

    /// The implicit flow (OpenID Connect Core 3.2) as authctl asks for it: `id_token` by
    /// `form_post`, with a nonce (3.2.2.1 requires one); the ID token comes in the page.
    func implicitAuthorize(_ parameters: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        guard let redirectURI = parameters["redirect_uri"], let state = parameters["state"], parameters["client_id"] == clientID,
            parameters["response_mode"] == "form_post", let nonce = parameters["nonce"], !nonce.isEmpty
        else {
            return HTTPResponse(status: 400, body: Data("bad implicit request: form_post and a nonce are required".utf8))
        }
        if let error = behaviour.authorizeError {
            return FakeHTTP.autoPost(to: redirectURI, [("error", error), ("state", behaviour.forgedState ?? state)])
        }
        let token = idToken(behaviour, nonce: nonce, subject: behaviour.subject)
        remember(token)
        return FakeHTTP.autoPost(to: redirectURI, [("id_token", token), ("state", behaviour.forgedState ?? state)])
    }

    /// The backchannel authentication endpoint (CIBA Core 1.0 §7): the client authenticated as
    /// at the device endpoint; an `auth_req_id` polled like a device code.
    func backchannelAuthentication(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        var form = Self.form(request.body)
        lock.withLock { backchannelForms.append(form) }
        if let secret = behaviour.clientSecret {
            let basic = "Basic " + Data("\(clientID):\(secret)".utf8).base64EncodedString()
            let authenticated = behaviour.secretInBody ? form["client_secret"] == secret : request.headers["authorization"] == basic
            guard authenticated else { return oauthError("invalid_client", "bad client authentication", status: 401) }
            if !behaviour.secretInBody { form["client_id"] = clientID }
        }
        guard form["client_id"] == clientID else { return oauthError("invalid_client", "unknown client", status: 401) }
        guard form["login_hint"] == behaviour.backchannelLoginHint else { return oauthError("unknown_user_id", "who is that?") }
        let id = "dc-ciba-" + UUID().uuidString
        remember(id)
        lock.withLock {
            deviceCodes.insert(id)
            devicePollsLeft = behaviour.devicePolls
        }
        var body: [String: JSONValue] = ["auth_req_id": .string(id), "expires_in": .number(behaviour.deviceExpiresIn)]
        if let interval = behaviour.deviceInterval { body["interval"] = interval }
        return json(.object(body))
    }

    /// The forms the backchannel endpoint received, in order.
    public var backchannelRequests: [[String: String]] { lock.withLock { backchannelForms } }

    func deviceAuthorization(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        var form = Self.form(request.body)
        if let secret = behaviour.clientSecret {
            // RFC 8628 §3.1: a confidential client authenticates as at the token endpoint.
            let basic = "Basic " + Data("\(clientID):\(secret)".utf8).base64EncodedString()
            let authenticated = behaviour.secretInBody ? form["client_secret"] == secret : request.headers["authorization"] == basic
            guard authenticated else { return oauthError("invalid_client", "bad client authentication", status: 401) }
            if !behaviour.secretInBody { form["client_id"] = clientID }
        }
        guard form["client_id"] == clientID else { return oauthError("invalid_client", "unknown client", status: 401) }
        let deviceCode = "dc-" + UUID().uuidString
        remember(deviceCode)
        lock.withLock {
            deviceCodes.insert(deviceCode)
            devicePollsLeft = behaviour.devicePolls
        }
        var body: [String: JSONValue] = [
            "device_code": .string(deviceCode), "user_code": .string(behaviour.deviceUserCode),
            "verification_uri": .string(issuer + behaviour.deviceVerificationPath),
            "expires_in": .number(behaviour.deviceExpiresIn),
        ]
        if let interval = behaviour.deviceInterval { body["interval"] = interval }
        if behaviour.deviceVerificationComplete { body["verification_uri_complete"] = .string("\(issuer)/activate?user_code=WDJB-MJHT") }
        return json(.object(body))
    }
}
