import Synchronization

/// The nonces DPoP servers hand out (RFC 9449 §8, §9), remembered for one command: the
/// latest `DPoP-Nonce` a server sent, on an answer of any status, goes into the next proof
/// to it. Kept per server (scheme, host and port) and client id, since a server may keep
/// one nonce per client (Glewlwyd does: Tests/E2E/glewlwyd/README.md). Never written down:
/// a nonce lives minutes, and the next command learns it again with one retry.
final class DPoPNonces: Sendable {
    struct Server: Hashable, Sendable {
        var origin: String
        var clientID: String?

        init(url: URL, clientID: String?) {
            origin = "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
            self.clientID = clientID
        }
    }

    private let nonces = Mutex<[Server: String]>([:])

    func nonce(for server: Server) -> String? { nonces.withLock { $0[server] } }

    /// Keeps the answer's `DPoP-Nonce`, when it carries one of the nonce's syntax (RFC 9449
    /// §8.1: `1*NQCHAR`, printable ASCII without `"` and `\`), at most 512 characters.
    func remember(_ response: HTTPResponse, for server: Server) {
        guard let nonce = response.header("DPoP-Nonce"), Self.isNonce(nonce) else { return }
        nonces.withLock { $0[server] = nonce }
    }

    static func isNonce(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 512
            && text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Whether the answer asks for a proof with a nonce: `use_dpop_nonce` in the JSON error
    /// (RFC 9449 §8: 400 at a token endpoint; some servers say 401) or in a
    /// `WWW-Authenticate: DPoP` challenge (§9), with a usable `DPoP-Nonce` beside it.
    static func asksForNonce(_ response: HTTPResponse) -> Bool {
        guard response.status == 400 || response.status == 401, let nonce = response.header("DPoP-Nonce"), isNonce(nonce) else {
            return false
        }
        if let json = JSONValue.object(from: response.body), json["error"]?.stringValue == OAuthErrorCode.useDPoPNonce.rawValue {
            return true
        }
        return response.header("WWW-Authenticate")?.contains(OAuthErrorCode.useDPoPNonce.rawValue) == true
    }
}

extension TokenClient.Pushed {
    /// A pushed authorization request's answer (RFC 9126 §2.2, §2.3): 201 (some servers say
    /// 200) with a `request_uri` and `expires_in`; an OAuth error is the provider's refusal;
    /// anything else is not the protocol. A `request_uri` is bounded and printable: it goes
    /// into the browser's URL.
    static func parse(_ response: HTTPResponse, host: String) throws -> TokenClient.Pushed {
        let json = JSONValue.object(from: response.body)
        if let json, let error = OAuthErrorResponse(json) {
            throw AuthError.invalidCredential(
                "\(host) refused the pushed authorization request: \(error.summary). \(error.nextStep)", oauthError: error.code)
        }
        guard (200...201).contains(response.status), json != nil else {
            guard (400..<500).contains(response.status) else {
                throw AuthError.network(
                    "the pushed authorization request endpoint at \(host) answered HTTP \(response.status) without an OAuth response (RFC 9126 §2.2). The provider may be down or misconfigured; try again later"
                )
            }
            throw AuthError.invalidCredential(
                "\(host) refused the pushed authorization request (HTTP \(response.status), no OAuth error). Check the app's registration at the provider (its redirect URI, scopes and client authentication); run with -v to see the exchange"
            )
        }
        guard let json, let requestURI = json["request_uri"]?.stringValue, !requestURI.isEmpty, requestURI.utf8.count <= 2048,
            requestURI.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw AuthError.network(
                "the pushed authorization request endpoint at \(host) answered without a usable request_uri (RFC 9126 §2.2). Check the provider's configuration"
            )
        }
        let expiresIn = TokenResponse.lifetime(json["expires_in"]) ?? 60
        return TokenClient.Pushed(requestURI: requestURI, expiresIn: expiresIn)
    }
}
