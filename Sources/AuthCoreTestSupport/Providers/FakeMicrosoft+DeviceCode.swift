import AuthCore
import Crypto
import Foundation

extension FakeMicrosoft {
    // MARK: Device code (RFC 8628)

    func deviceCode(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let form = FakeHTTP.form(request.body)
        guard form["client_id"] == clientID else {
            return aadstsError(AADSTSError("unauthorized_client", 700016, "Application with identifier was not found in the directory."))
        }
        let deviceCode = "DAQABAAEAAA" + UUID().uuidString
        let userCode = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(9)).uppercased()
        lock.withLock {
            deviceCodes[deviceCode] = (userCode, false, (form["scope"] ?? "").split(separator: " ").map(String.init), tenant)
        }
        remember(deviceCode)
        return FakeHTTP.json(
            .object([
                "device_code": .string(deviceCode), "user_code": .string(userCode),
                "verification_uri": .string("https://microsoft.com/devicelogin"), "expires_in": .number(900), "interval": .number(5),
                "message": .string(
                    "To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code \(userCode) to authenticate."
                ),
            ]))
    }

    /// What the person does at https://microsoft.com/devicelogin: approve a user code.
    public func approveDeviceCode(_ userCode: String) {
        lock.withLock {
            for (code, entry) in deviceCodes where entry.userCode == userCode { deviceCodes[code]?.approved = true }
        }
    }

    func deviceCodeToken(_ form: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        guard let code = form["device_code"], let entry = lock.withLock({ deviceCodes[code] }) else {
            return aadstsError(AADSTSError("expired_token", 70019, "Verification code expired."))
        }
        guard entry.approved else {
            return aadstsError(
                AADSTSError("authorization_pending", 70016, "OAuth 2.0 device flow error. Authorization is pending. Continue polling."))
        }
        lock.withLock { _ = deviceCodes.removeValue(forKey: code) }
        let grant = Grant(
            account: behaviour.account, clientID: clientID, redirectURI: "", challenge: nil, nonce: nil,
            consented: entry.scopes + behaviour.graphScopes, requested: entry.scopes)
        return issueTokens(grant, requested: entry.scopes, includeNonce: false, behaviour)
    }

    // MARK: Graph

    /// The account of a Graph request's token, or the 401/403 Graph answers.
    func graphCaller(_ request: ReceivedRequest, needs scope: String) -> (account: Account?, refusal: HTTPResponse?) {
        func graphError(_ status: Int, _ code: String, _ message: String) -> (Account?, HTTPResponse?) {
            (nil, FakeHTTP.json(.object(["error": .object(["code": .string(code), "message": .string(message)])]), status: status))
        }
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else {
            return graphError(401, "InvalidAuthenticationToken", "Access token is empty.")
        }
        guard let token = lock.withLock({ accessTokens[String(header.dropFirst(7))] }), token.resource == graphHost else {
            return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.")
        }
        guard token.scopes.contains(where: { $0.caseInsensitiveCompare(scope) == .orderedSame }) else {
            return graphError(403, "Authorization_RequestDenied", "Insufficient privileges to complete the operation.")
        }
        return (token.account, nil)
    }

    func graphMe(_ request: ReceivedRequest) -> HTTPResponse {
        let caller = graphCaller(request, needs: "User.Read")
        guard let account = caller.account else { return caller.refusal! }
        let mail: JSONValue = account.mail.map(JSONValue.string) ?? .null
        return FakeHTTP.json(
            .object([
                "@odata.context": .string("\(graphHost)/v1.0/$metadata#users/$entity"), "businessPhones": .array([]),
                "displayName": account.name.map(JSONValue.string) ?? .null, "givenName": .null, "jobTitle": .null, "mail": mail,
                "mobilePhone": .null, "officeLocation": .null, "preferredLanguage": .null, "surname": .null,
                "userPrincipalName": .string(account.preferredUsername), "id": .string(account.objectID),
            ]))
    }

    func graphPhoto(_ request: ReceivedRequest) -> HTTPResponse {
        let caller = graphCaller(request, needs: "User.Read")
        guard let account = caller.account else { return caller.refusal! }
        guard let photo = account.photo else {
            return FakeHTTP.json(
                .object([
                    "error": .object([
                        "code": .string("ImageNotFound"),
                        "message": .string(
                            "Exception of type 'Microsoft.Fast.Profile.Core.Exception.ImageNotFoundException' was thrown."),
                    ])
                ]), status: 404)
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: photo)
    }
}
