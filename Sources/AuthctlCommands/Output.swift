import AuthCore

/// Writes results: one JSON document with `--json`, text for people otherwise. Text and JSON
/// go out visible-safe (`Sanitize.visible`, `Sanitize.visibleJSON`): a name, email, code or
/// message that a provider or a file controls never reaches the terminal with an escape
/// sequence or a bidirectional override in it. Only `write` is raw (a token, a photo).
struct Output {
    let stdout: any OutputChannel
    let stderr: any OutputChannel

    /// Bytes on stdout as they are (a token, an export, a photo).
    func write(_ bytes: some Sequence<UInt8>) { try? stdout.write(Array(bytes)) }

    /// A message on stderr (its caller ends it with a newline).
    func error(_ text: String) { stderr.print(Sanitize.visible(text, keepingLines: true)) }

    func json(_ value: JSONValue) {
        write(Self.jsonDocument(value))
    }

    /// What `json` writes: the document and a newline.
    static func jsonDocument(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return visibleJSON(data) + Data("\n".utf8)
    }

    /// A JSON document authctl prints (`--json`, an export), escaped for a terminal.
    static func visibleJSON(_ document: Data) -> Data {
        Data(Sanitize.visibleJSON(String(decoding: document, as: UTF8.self)).utf8)
    }

    /// Rows for people and for scripts: on a terminal, aligned columns under a header;
    /// otherwise tab-separated rows without a header (what `cut -f` and `awk -F'\t'` read).
    /// `headerInPipe`: the header row also without a terminal (tab-separated), for a table whose
    /// values ("yes", "local") mean nothing in a log without their column's name.
    func table(header: [String], rows: [[String]], headerInPipe: Bool = false) {
        // Each cell escaped whole: a tab or line feed in a value never makes a column or a row.
        let shown = rows.map { $0.map { Sanitize.visible($0) } }
        if headerInPipe, !stdout.isTerminal { line(header.joined(separator: "\t")) }
        for row in Self.formatTable(header: header, rows: shown, aligned: stdout.isTerminal) { line(row) }
    }

    static func formatTable(header: [String], rows: [[String]], aligned: Bool) -> [String] {
        guard aligned else { return rows.map { $0.joined(separator: "\t") } }
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }.joined()
        }
    }

    func line(_ text: String) {
        stdout.print(Sanitize.visible(text, keepingLines: true) + "\n")
    }

    static func timestamp(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        return .string(rfc3339(date))
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// `local`, or `firebase:PROJECT[/TENANT]` (docs/firebase.md): where the user lives.
    static func backendName(of user: User) -> String { user.backend?.name ?? "local" }

    /// The USER object's `backend` (docs/firebase.md): `{"kind": "local"}`, or the Firebase project with
    /// the Firebase session's expiry.
    static func backend(of user: User) -> JSONValue {
        guard let backend = user.backend else { return .object(["kind": "local"]) }
        return .object([
            "kind": "firebase", "projectId": .string(backend.projectID), "tenantId": optional(backend.tenantID),
            "signedIn": .bool(backend.session != nil), "idTokenExpiresAt": timestamp(backend.session?.expiresAt),
        ])
    }

    /// The USER object of docs/exit-codes.md.
    static func user(_ user: User) -> JSONValue {
        .object([
            "backend": backend(of: user),
            "uid": .string(user.uid),
            "email": optional(user.email),
            "emailVerified": .bool(user.emailVerified),
            "displayName": optional(user.displayName),
            "photoURL": optional(user.photoURL),
            "createdAt": timestamp(user.createdAt),
            "lastSignInAt": timestamp(user.lastSignInAt),
            "lastAuthAt": timestamp(user.lastAuthAt),
            "kind": .string(user.kind.rawValue),
            "hasSession": .bool(hasSession(user)),
            "providerData": .array(
                user.providerData.map { identity in
                    .object([
                        "providerId": .string(identity.providerID),
                        "federatedId": .string(identity.federatedID),
                        "issuer": .string(identity.issuer),
                        "email": optional(identity.profile.email),
                        "displayName": optional(identity.profile.displayName),
                        "accessTokenExpiresAt": timestamp(identity.tokens?.expiresAt),
                        // Sealed and read without the key: whether it is refreshable is not known.
                        // A refresh token the provider refused (`invalid_grant`) refreshes nothing.
                        "refreshable": identity.tokens?.needsSignInSince != nil
                            ? .bool(false)
                            : identity.tokens?.isSealed == true ? .null : .bool(identity.tokens?.refreshToken != nil),
                        "needsSignInSince": timestamp(identity.tokens?.needsSignInSince),
                        "signedIn": .bool(identity.tokens != nil),
                        "tokensSealed": .bool(identity.tokens?.isSealed == true),
                        // `DPoP` for tokens bound to a key (RFC 9449); the key itself never shows.
                        "tokenType": identity.tokens.map { .string($0.tokenType) } ?? .null,
                        "authorizationDetails": identity.tokens?.authorizationDetails?.value ?? .null,
                        // A workload's: how it authenticates, as where it is read (never a value).
                        "authentication": identity.workload.map { .string($0.summary) } ?? .null,
                        // A workload's grant: `client_credentials` or `jwt-bearer` (RFC 7523 §2.1).
                        "grant": identity.workload.map { .string($0.grantName) } ?? .null,
                    ])
                }),
            "resourceGrants": resourceGrants(user),
        ])
    }

    /// Whether the user has a session: tokens of an identity, or a Firebase session.
    static func hasSession(_ user: User) -> Bool {
        user.providerData.contains { $0.tokens != nil } || user.backend?.session != nil || user.resourceGrants.contains { $0.tokens != nil }
    }

    /// A user who still has a session, as `status --json` names one.
    static func sessionSummary(_ user: User) -> JSONValue {
        .object(["uid": .string(user.uid), "email": optional(user.email)])
    }

    /// How a person reads a user: the email or name; a workload by its client id (escaped as a
    /// `cell`: it goes inside lines).
    static func name(of user: User) -> String {
        if user.kind == .workload, let client = user.providerData.first?.workload?.clientID {
            return "the workload \(cell(client))"
        }
        return cell(user.email ?? user.displayName ?? user.uid)
    }

    /// The result of `login`, `link` and `reauth` (docs/exit-codes.md).
    func accountResult(user: User, providerID: String, isNewUser: Bool, json: Bool, text: String) {
        if json {
            self.json(.object(["user": Output.user(user), "providerId": .string(providerID), "isNewUser": .bool(isNewUser)]))
        } else {
            line(text)
        }
    }

    static func revocations(_ revocations: [TokenRevocation.Result]) -> JSONValue {
        .array(
            revocations.map { revocation in
                .object([
                    "uid": .string(revocation.uid), "providerId": .string(revocation.providerID),
                    "result": .string(revocation.result.rawValue), "message": optional(revocation.message),
                ])
            })
    }

    /// One stderr line per revocation, for people.
    func report(_ revocations: [TokenRevocation.Result]) {
        for revocation in revocations {
            let detail = revocation.message.map { ": \($0)" } ?? ""
            let text =
                switch revocation.result {
                case .revoked: "revoked the \(revocation.providerID) \(revocation.accessToken ? "access token" : "refresh token")"
                case .notSupported: "\(revocation.providerID) offers no revocation; its tokens were only deleted here"
                case .failed: "could not revoke the \(revocation.providerID) token\(detail); it was deleted here anyway"
                }
            error("authctl: \(text)\n")
        }
    }

    /// A value inside a line authctl lays out: escaped whole (`Sanitize.visible`), a line feed or
    /// tab too, so that a name or email a provider chose adds no line or column of its own (the
    /// line itself keeps its line feeds: `line`).
    static func cell(_ value: String) -> String { Sanitize.visible(value) }

    /// A person's view of a user, one identity per line.
    static func describe(_ user: User, now: Date) -> [String] {
        var lines = ["\(name(of: user))\(user.displayName.map { user.email != nil ? " (\(cell($0)))" : "" } ?? "")"]
        lines.append("  uid:        \(cell(user.uid))")
        if user.kind == .workload {
            let grant = user.providerData.first?.workload?.jwtBearerAssertion != nil ? "JWT-bearer grant" : "client credentials"
            lines.append("  kind:       workload (\(grant); no browser, no refresh token)")
        }
        // A user made by a resource's sign-in has signed in with no provider of its own.
        lines.append("  last login: \(rfc3339(user.lastSignInAt))\(user.lastProviderID.map { " with \(cell($0))" } ?? "")")
        if let backend = user.backend {
            let session =
                backend.session.map { session in
                    session.expiresAt.map { expiry in
                        let interval = expiry.timeIntervalSince(now)
                        let seconds = interval.isFinite ? Int(max(min(interval, 1e12), -1e12)) : 0  // a keystore date never traps
                        return seconds > 0 ? "Firebase ID token valid for \(lifetime(seconds))" : "Firebase ID token expired, refreshable"
                    } ?? "signed in"
                } ?? "signed out"
            lines.append("  backend:    \(backend.name) — \(session)")
        }
        for identity in user.providerData {
            var state = "signed out"
            if let tokens = identity.tokens, tokens.isSealed {
                state =
                    tokens.expiresAt.map { expiry in
                        let interval = expiry.timeIntervalSince(now)
                        let seconds = interval.isFinite ? Int(max(min(interval, 1e12), -1e12)) : 0  // a keystore date never traps
                        return seconds > 0 ? "access token valid for \(lifetime(seconds))" : "access token expired"
                    } ?? "signed in"
                state += ", tokens sealed (the key is needed to use them)"
            } else if let tokens = identity.tokens, tokens.accessToken == nil {
                state = "ID token only (signed in with --id-token), not refreshable"
            } else if let tokens = identity.tokens {
                state =
                    tokens.expiresAt.map { expiry in
                        let interval = expiry.timeIntervalSince(now)
                        let seconds = interval.isFinite ? Int(max(min(interval, 1e12), -1e12)) : 0  // a keystore date never traps
                        return seconds > 0 ? "access token valid for \(lifetime(seconds))" : "access token expired"
                    } ?? "access token (lifetime unknown)"
                state +=
                    tokens.refreshToken != nil ? ", refreshable" : identity.workload != nil ? ", renewed by the grant" : ", not refreshable"
                if tokens.isDPoPBound { state += ", DPoP-bound" }
            }
            if let since = identity.tokens?.needsSignInSince {
                // The provider refused the refresh token: no "refreshable", whatever the access token's lifetime.
                let tokens = identity.tokens
                let left = tokens?.expiresAt.map { Int(max(min($0.timeIntervalSince(now), 1e12), -1e12)) } ?? 0
                state =
                    "needs sign-in since \(rfc3339(since)): \(identity.providerID) refused the refresh token (invalid_grant)"
                    + (left > 0 ? "; the access token is valid for \(lifetime(left)) more" : "")
                    + ". Sign in again: authctl login \(identity.providerID)"
            }
            if let workload = identity.workload { state += " (\(cell(workload.summary)))" }
            lines.append("  \(cell(identity.providerID)): \(cell(identity.profile.email ?? identity.federatedID)) — \(state)")
        }
        lines += describeResourceGrants(user, now: now)
        return lines
    }

    static func lifetime(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}

/// Prints a failure: one line on stderr, and with `--json` the error document on stdout.
enum ErrorReport {
    static func emit(_ error: AuthError, json: Bool, to output: Output) -> Int32 {
        let message = MessageSpelling.words(error.message).replacingEvery("\n", with: " ")
        output.error("authctl: \(message)\n")
        if json {
            var fields: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(message)]
            for (key, value) in error.details { fields[key] = value }
            output.json(.object(["error": .object(fields)]))
        }
        return error.code.exitStatus
    }
}
