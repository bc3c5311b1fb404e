/// `authctl status [--json]` answered from the current user's record (issue 37): the text and the
/// JSON document the full program's `Status` prints (`Output.describe`, `Output.user`,
/// `Output.jsonDocument`) for the records this core reads — a person of the local backend, its
/// identities and resource grants, a plaintext keystore — with nothing on stderr and exit 0.
/// Nil whenever the full program might print anything else: a text it would escape (a control
/// character or bidirectional control: `Sanitize.visible`), a token type it would lower-case
/// beyond ASCII, a sealed keystore, a workload, a Firebase user (the record reader refuses the
/// last two). StatusAnswerAgreementTests holds the bytes to the full program's on every keystore
/// the tests know; Tests/Front/agreement.py holds the two programs to each other.
public enum CachedStatusAnswer {
    /// What `status` asked: `--json`, `--keystore P`, `--config P`, each at most once (`TokenForm`'s
    /// grammar); nil for anything else (`--check`, `--user`, `-v`, help…).
    public struct Request: Equatable {
        public var keystore: String?
        public var config: String?
        public var json = false

        public init(keystore: String? = nil, config: String? = nil, json: Bool = false) {
            self.keystore = keystore
            self.config = config
            self.json = json
        }

        /// The whole command line (after the program's name).
        public static func parse(_ arguments: [String]) -> Request? {
            guard arguments.first == "status" else { return nil }
            let rest = Array(arguments.dropFirst())
            // A repeated option: ArgumentParser's to judge.
            var names: [String] = []
            for argument in rest where argument.hasPrefix("-") {
                let utf8 = argument.utf8
                let name = utf8.firstIndex(of: UInt8(ascii: "=")).map { String(decoding: utf8[..<$0], as: UTF8.self) } ?? argument
                guard !names.contains(name) else { return nil }
                names.append(name)
            }
            let accepts: (TokenForm.Option, String) -> Bool = { option, value in
                (option == .keystore || option == .config) && CachedTokenRequest.isPath(value)
            }
            guard let form = TokenForm.parse(rest, accepts: accepts), form == Request.plain(form) else { return nil }
            return Request(keystore: form.keystore, config: form.config, json: form.json)
        }

        /// `form` with only what status takes kept: equal to it when it asked nothing else.
        static func plain(_ form: TokenForm) -> TokenForm {
            var plain = TokenForm()
            plain.keystore = form.keystore
            plain.config = form.config
            plain.json = form.json
            return plain
        }
    }

    /// The bytes `status` prints for `user` at `now` (seconds since 1970); nil: the full program's.
    public static func bytes(_ request: Request, user: CachedUser, now: Double) -> [UInt8]? {
        guard !user.fromSealedKeystore, isShown(user) else { return nil }
        return request.json ? json(user) : text(user, now: now)
    }

    // MARK: - Text (`Output.describe`)

    static func text(_ user: CachedUser, now: Double) -> [UInt8]? {
        var lines = "Signed in as " + name(user)
        if user.email != nil, let displayName = user.profile.displayName { lines += " (" + displayName + ")" }
        guard let lastSignIn = TokenOutputBytes.rfc3339(seconds: user.profile.lastSignInAt) else { return nil }
        lines += "\n  uid:        " + user.uid + "\n  last login: " + lastSignIn
        if let provider = user.lastProviderId { lines += " with " + provider }
        lines += "\n"
        for identity in user.providerData {
            guard let state = state(of: identity, now: now) else { return nil }
            lines += "  " + identity.providerId + ": " + (identity.email ?? identity.federatedId) + " — " + state + "\n"
        }
        for grant in user.resourceGrants {
            var state = "signed out"
            if let tokens = grant.tokens {
                state = expiry(tokens.expiresAt, now: now)
                state +=
                    tokens.hasRefreshToken
                    ? ", refreshable"
                    : grant.refreshTokenOf.map { ", refreshable (with the refresh token of " + $0 + ")" }
                        ?? grant.viaProviderId.map { ", renewed through " + $0 + " (identity chaining)" } ?? ", not refreshable"
                if !tokens.scopes.isEmpty { state += "; scopes: " + joined(tokens.scopes) }
            }
            lines += "  resource " + grant.resource + " (" + grant.providerId + ") — " + state + "\n"
        }
        return TokenOutputBytes.bytes(lines)
    }

    /// An identity's state, as `Output.describe` words it for a plaintext keystore.
    static func state(of identity: CachedIdentity, now: Double) -> String? {
        guard let tokens = identity.tokens else { return "signed out" }
        var state: String
        if tokens.accessToken == nil {
            state = "ID token only (signed in with --id-token), not refreshable"
        } else {
            state = expiry(tokens.expiresAt, now: now) + (tokens.hasRefreshToken ? ", refreshable" : ", not refreshable")
            if CachedTokenAnswer.isDPoP(tokens.tokenType) { state += ", DPoP-bound" }
        }
        if let since = tokens.needsSignInSince {
            // The provider refused the refresh token: no "refreshable", whatever the access token's lifetime.
            guard let stamp = TokenOutputBytes.rfc3339(seconds: since) else { return nil }
            let left = tokens.expiresAt.map { seconds($0 - now) } ?? 0
            state =
                "needs sign-in since " + stamp + ": " + identity.providerId + " refused the refresh token (invalid_grant)"
                + (left > 0 ? "; the access token is valid for " + lifetime(left) + " more" : "") + ". Sign in again: authctl login "
                + identity.providerId
        }
        return state
    }

    static func expiry(_ expiresAt: Double?, now: Double) -> String {
        guard let expiresAt else { return "access token (lifetime unknown)" }
        let left = seconds(expiresAt - now)
        return left > 0 ? "access token valid for " + lifetime(left) : "access token expired"
    }

    /// `Int(interval)` as the full program takes it (toward zero, bounded: a keystore date never traps).
    static func seconds(_ interval: Double) -> Int {
        guard interval.isFinite else { return 0 }
        return Int(max(min(interval, 1e12), -1e12))
    }

    /// `Output.lifetime`.
    static func lifetime(_ seconds: Int) -> String {
        if seconds < 120 { return String(seconds) + " s" }
        if seconds < 7200 { return String(seconds / 60) + " min" }
        return String(seconds / 3600) + " h " + String(seconds % 3600 / 60) + " min"
    }

    // MARK: - JSON (`Output.user`, sorted keys, `JSONEncoder`'s pretty printing)

    static func json(_ user: CachedUser) -> [UInt8]? {
        var out = PrettyJSON()
        out.open("{")
        out.member("signedIn", bool: true)
        out.key("user")
        out.open("{")
        out.key("backend")
        out.open("{")
        out.member("kind", string: "local")
        out.close("}")
        guard out.member("createdAt", date: user.profile.createdAt) else { return nil }
        out.member("displayName", string: user.profile.displayName)
        out.member("email", string: user.email)
        out.member("emailVerified", bool: user.profile.emailVerified)
        out.member("hasSession", bool: user.providerData.contains { $0.tokens != nil } || user.resourceGrants.contains { $0.tokens != nil })
        out.member("kind", string: "person")
        guard out.member("lastAuthAt", date: user.profile.lastAuthAt), out.member("lastSignInAt", date: user.profile.lastSignInAt)
        else { return nil }
        out.member("photoURL", string: user.profile.photoURL)
        out.key("providerData")
        out.open("[")
        for identity in user.providerData {
            out.element()
            out.open("{")
            let tokens = identity.tokens
            guard out.member("accessTokenExpiresAt", date: tokens?.expiresAt) else { return nil }
            out.member("authentication", string: nil)
            out.member("authorizationDetails", string: nil)
            out.member("displayName", string: identity.displayName)
            out.member("email", string: identity.email)
            out.member("federatedId", string: identity.federatedId)
            out.member("grant", string: nil)  // a workload's (the front hands workloads over)
            out.member("issuer", string: identity.issuer)
            guard out.member("needsSignInSince", date: tokens?.needsSignInSince) else { return nil }
            out.member("providerId", string: identity.providerId)
            out.member("refreshable", bool: tokens?.needsSignInSince == nil && tokens?.hasRefreshToken == true)
            out.member("signedIn", bool: tokens != nil)
            out.member("tokenType", string: tokens?.tokenType)
            out.member("tokensSealed", bool: false)
            out.close("}")
        }
        out.close("]")
        out.key("resourceGrants")
        out.open("[")
        for grant in user.resourceGrants {
            out.element()
            out.open("{")
            guard out.member("accessTokenExpiresAt", date: grant.tokens?.expiresAt), out.member("grantedAt", date: grant.grantedAt)
            else { return nil }
            out.member("issuer", string: grant.issuer)
            out.member("providerId", string: grant.providerId)
            if let holder = grant.refreshTokenOf { out.member("refreshTokenOf", string: holder) }  // "T" sorts before "a"
            out.member("refreshable", bool: grant.tokens?.hasRefreshToken == true || (grant.tokens != nil && grant.refreshTokenOf != nil))
            out.member("resource", string: grant.resource)
            out.key("scopes")
            out.open("[")
            for scope in grant.tokens?.scopes ?? [] {
                out.element()
                out.string(scope)
            }
            out.close("]")
            out.member("signedIn", bool: grant.tokens != nil)
            if let via = grant.viaProviderId { out.member("viaProviderId", string: via) }
            out.close("}")
        }
        out.close("]")
        out.member("uid", string: user.uid)
        out.close("}")
        out.close("}")
        out.bytes.append(0x0A)
        return out.bytes
    }

    // MARK: - What the front shows as the full program would

    /// Whether every text shown is one the full program shows as it is (`isPlain`), and every
    /// token type one it lower-cases as ASCII does.
    static func isShown(_ user: CachedUser) -> Bool {
        var texts = [user.uid, user.lastProviderId ?? "", user.email ?? "", user.profile.displayName ?? "", user.profile.photoURL ?? ""]
        for identity in user.providerData {
            texts += [identity.providerId, identity.issuer, identity.federatedId, identity.email ?? "", identity.displayName ?? ""]
            if let tokens = identity.tokens {
                guard CachedTokenRequest.isPrintableASCII(tokens.tokenType) else { return false }
                texts.append(tokens.tokenType)
            }
        }
        for grant in user.resourceGrants {
            texts += [grant.resource, grant.issuer, grant.providerId, grant.viaProviderId ?? "", grant.refreshTokenOf ?? ""]
            texts += grant.tokens?.scopes ?? []
        }
        return texts.allSatisfy(isPlain)
    }

    /// Text that `Sanitize.visible` and `visibleJSON` leave as it is and `JSONEncoder` escapes at
    /// most a quote and a backslash of: valid UTF-8 (the reader's) without a C0 or C1 control,
    /// DEL, a bidirectional control or a line or paragraph separator (`Sanitize.isUnsafeToShow`).
    static func isPlain(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return false }
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 { return false }  // U+0080–U+009F
            if byte == 0xD8, index + 1 < bytes.count, bytes[index + 1] == 0x9C { return false }  // U+061C
            if byte == 0xE2, index + 2 < bytes.count {
                let second = bytes[index + 1], third = bytes[index + 2]
                // U+200E, U+200F, U+2028–U+202E
                if second == 0x80, third == 0x8E || third == 0x8F || (third >= 0xA8 && third <= 0xAE) { return false }
                if second == 0x81, third >= 0xA6 && third <= 0xA9 { return false }  // U+2066–U+2069
            }
            index += 1
        }
        return true
    }

    static func name(_ user: CachedUser) -> String { user.email ?? user.profile.displayName ?? user.uid }

    static func joined(_ values: [String]) -> String {
        var text = ""
        for (index, value) in values.enumerated() { text += (index == 0 ? "" : " ") + value }
        return text
    }
}
