import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// docs/firebase.md through the commands, in-process: the backend is a Firebase project (the fake
/// Identity Toolkit), which brokers the sign-in at a real local OpenID provider.
@Suite("The Firebase backend through the commands", .serialized)
struct FirebaseCommandsTests {
    let firebase: FakeFirebaseAuth
    let provider: FakeIdentityProvider
    let authctl: InProcessAuthctl
    let consoleSecret = "console-secret-\(UUID().uuidString)"

    init() async throws {
        firebase = try FakeFirebaseAuth()
        provider = try FakeIdentityProvider()
        firebase.enable("oidc.corp", provider: provider, clientSecret: consoleSecret)
        authctl = InProcessAuthctl()
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--emulator",
            firebase.emulatorHost,
        ])
        #expect(use.status == 0, "\(use.stderr)")
    }

    func claims(_ token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        return JSONValue.object(from: data)
    }

    @Test("login brokered by Firebase: no providers add; the session and the provider token kept; status and users list name the backend")
    func login() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let login = try await authctl.run(["login", "oidc.corp", "--json", "--scope", "email"])
        #expect(login.status == 0, "\(login.stderr)")
        let user = try #require(login.json?["user"]?.objectValue)
        let localID = try #require(firebase.users.first?.localID)
        #expect(user["uid"] == .string(localID))
        #expect(user["backend"]?.objectValue?["kind"] == "firebase")
        #expect(user["backend"]?.objectValue?["projectId"] == .string(firebase.projectID))
        #expect(login.json?["isNewUser"] == true)
        // Firebase ran the code exchange with the console's secret, over createAuthUri's session.
        #expect(provider.count("token") == 1)
        let signIn = try #require(firebase.receivedRequests.first { $0.path.hasSuffix("accounts:signInWithIdp") }?.body)
        #expect(signIn["sessionId"] != nil && signIn["returnIdpCredential"] == true && signIn["returnSecureToken"] == true)
        #expect(signIn["requestUri"]?.stringValue?.hasPrefix("http://localhost:") == true)
        let created = try #require(firebase.receivedRequests.first { $0.path.hasSuffix("accounts:createAuthUri") }?.body)
        #expect(created["providerId"] == "oidc.corp" && created["oauthScope"] == "email")
        // The Firebase ID token, from the keystore (no network).
        let calls = firebase.receivedRequests.count
        let token = try await authctl.run(["token"])
        #expect(token.status == 0, "\(token.stderr)")
        let idToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(claims(idToken)?["sub"] == .string(localID))
        #expect(claims(idToken)?["aud"] == .string(firebase.projectID))
        #expect(firebase.receivedRequests.count == calls)
        // The hot path answers it before any task exists, as for a local user.
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let invocation = AuthctlInvocation(
            arguments: ["token"],
            io: authctl.io(stdin: ScriptedInput(Data(), isTerminal: false), stdout: stdout, stderr: stderr, environment: [:]))
        #expect(invocation.finishWithoutConcurrency() == 0, "\(stderr.text)")
        #expect(stdout.text == token.stdout)
        let json = try await authctl.run(["token", "--format", "json"])
        #expect(json.json?["providerId"] == "firebase" && json.json?["idToken"] == .string(idToken))
        // The provider's access token, as Firebase handed it over.
        let providerToken = try await authctl.run(["token", "oidc.corp"])
        #expect(providerToken.stdout.hasPrefix("at-"), "\(providerToken.stderr)")
        let status = try await authctl.run(["status"])
        #expect(status.stdout.contains("firebase:\(firebase.projectID)"), "\(status.stdout)")
        let list = try await authctl.run(["users", "list"])
        #expect(list.stdout.contains("firebase:\(firebase.projectID)"))
        // No secret of the flow, and never the API key, in what authctl wrote.
        for output in [login.stdout + login.stderr, status.stdout, list.stdout] {
            #expect(!output.contains(firebase.apiKey) && !output.contains(consoleSecret))
        }
        for secret in firebase.issuedSecrets where secret.count > 8 { #expect(!login.stderr.contains(secret)) }
        // -v logs each exchange without the key (the query is never logged).
        let verbose = try await authctl.run(["token", "--force-refresh", "-v"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("securetoken.googleapis.com/v1/token"), "\(verbose.stderr)")
        #expect(!verbose.stderr.contains(firebase.apiKey) && !verbose.stderr.contains("key="))
        // signout --revoke sends a Firebase user's provider token to no provider configured here.
        let signout = try await authctl.run(["signout", "--revoke"])
        #expect(signout.status == 0, "\(signout.stderr)")
        #expect(provider.revoked.isEmpty)
        #expect(signout.stderr.contains("oidc.corp"))
        #expect(try await authctl.run(["token"]).status == 16)
    }

    @Test("token refreshes through securetoken when it expires within --min-ttl; disabled is exit 19, revoked exit 20 and the tokens go")
    func refreshDisabledRevoked() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let localID = try #require(firebase.users.first?.localID)
        // A token issued this very second is as fresh as a refresh could make it: a little later,
        // --min-ttl above its lifetime asks a refresh.
        authctl.clock.advance(by: 5)
        let refreshed = try await authctl.run(["token", "--min-ttl", "7200"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(firebase.count("token") == 1)
        #expect(claims(refreshed.stdout.trimmingCharacters(in: .whitespacesAndNewlines))?["sub"] == .string(localID))
        // The refreshed token is stored: the next call needs no network.
        #expect(try await authctl.run(["token"]).stdout == refreshed.stdout)
        #expect(firebase.count("token") == 1)
        firebase.setDisabled(localID)
        let disabled = try await authctl.run(["token", "--force-refresh", "--json"])
        #expect(disabled.status == 19, "\(disabled.stderr)")
        #expect(disabled.stderr.contains("Firebase console"))
        #expect(disabled.json?["error"]?.objectValue?["code"] == "user-disabled")
        firebase.setDisabled(localID, false)
        firebase.revokeSessions(of: localID)
        let revoked = try await authctl.run(["token", "--force-refresh"])
        #expect(revoked.status == 20, "\(revoked.stderr)")
        #expect(revoked.stderr.contains("login"))
        // The tokens were dropped, the record kept.
        let list = try await authctl.run(["users", "list", "--json"])
        let users = try #require(list.json?["users"]?.arrayValue)
        #expect(users.count == 1)
        #expect(users.first?.objectValue?["backend"]?.objectValue?["signedIn"] == false)
        #expect(try await authctl.run(["status"]).status == 16)
    }

    @Test("link and reauth through Firebase: linked in the project; reauth with another account is user-mismatch")
    func linkAndReauth() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let other = try FakeIdentityProvider()
        other.update {
            $0.subject = "other-subject"; $0.email = "ada.other@example.com"
        }
        firebase.enable("oidc.other", provider: other)
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let link = try await authctl.run(["link", "oidc.other", "--json"])
        #expect(link.status == 0, "\(link.stderr)")
        #expect(firebase.users.first?.identities.map(\.providerID) == ["oidc.corp", "oidc.other"])
        let linked = try #require(link.json?["user"]?.objectValue?["providerData"]?.arrayValue)
        #expect(linked.count == 2)
        let reauth = try await authctl.run(["reauth", "oidc.other"])
        #expect(reauth.status == 0, "\(reauth.stderr)")
        #expect(firebase.receivedRequests.last { $0.path.hasSuffix("signInWithIdp") }?.body["autoCreate"] == false)
        other.update { $0.subject = "stranger" }
        let mismatch = try await authctl.run(["reauth", "oidc.other"])
        #expect(mismatch.status == 14, "\(mismatch.stderr)")
    }

    @Test(
        "unlink through accounts:update; users delete too late (15), then in time with Apple's token revoked first; signout drops the session"
    )
    func unlinkDeleteSignOut() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let apple = try FakeIdentityProvider()
        apple.update {
            $0.subject = "apple-subject"; $0.email = "ada.apple@example.com"
        }
        firebase.enable("apple.com", provider: apple)
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        #expect(try await authctl.run(["link", "apple.com"]).status == 0)
        let localID = try #require(firebase.users.first?.localID)
        let unlink = try await authctl.run(["unlink", "oidc.corp"])
        #expect(unlink.status == 0, "\(unlink.stderr)")
        #expect(firebase.user(localID)?.identities.map(\.providerID) == ["apple.com"])
        let shown = try await authctl.run(["users", "show", "--json"])
        #expect(shown.json?["user"]?.objectValue?["providerData"]?.arrayValue?.count == 1)
        // Unlinking the last provider is refused before anything is sent.
        #expect(try await authctl.run(["unlink", "apple.com"]).status == 2)
        firebase.ageSignIns(by: 600)
        let tooLate = try await authctl.run(["users", "delete"])
        #expect(tooLate.status == 15, "\(tooLate.stderr)")
        #expect(tooLate.stderr.contains("reauth"))
        #expect(firebase.user(localID) != nil)
        firebase.ageSignIns(by: -600)
        let deleted = try await authctl.run(["users", "delete"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(firebase.user(localID) == nil)
        #expect(firebase.revokedTokens.map(\.providerID) == ["apple.com"])
        #expect(try await authctl.run(["users", "list", "--json"]).json?["users"] == .array([]))
        // signout is local: the session goes, the user stays in the project and the keystore.
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        #expect(try await authctl.run(["signout"]).status == 0)
        let after = try await authctl.run(["users", "list", "--json"])
        #expect(after.json?["users"]?.arrayValue?.first?.objectValue?["backend"]?.objectValue?["signedIn"] == false)
        #expect(firebase.users.count == 1)
    }

    @Test("both conflicts keep their pending credential, finished by another command: link --pending, login --credential")
    func conflictsResumed() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let other = try FakeIdentityProvider()
        other.update { $0.subject = "other-subject" }  // the same verified email as oidc.corp's account
        firebase.enable("oidc.other", provider: other)
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let first = try #require(firebase.users.first?.localID)
        // One account per email: needConfirmation, saved.
        let exists = try await authctl.run(["login", "oidc.other", "--json"])
        #expect(exists.status == 10, "\(exists.stderr)")
        let handle = try #require(exists.json?["error"]?.objectValue?["pendingCredential"]?.stringValue)
        #expect(exists.json?["error"]?.objectValue?["providerIds"] == ["oidc.corp"])
        #expect(exists.stderr.contains("link --pending \(handle)"))
        // Another command, the first user signed in: the pending credential is linked.
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let linked = try await authctl.run(["link", "--pending", handle])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(firebase.user(first)?.identities.map(\.providerID) == ["oidc.corp", "oidc.other"])
        #expect(try await authctl.run(["link", "--pending", handle]).status == 2, "used once")
        // A second user links an identity the first has: FEDERATED_USER_ID_ALREADY_LINKED, saved.
        provider.update {
            $0.subject = "second"; $0.email = "grace@example.com"
        }
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let inUse = try await authctl.run(["link", "oidc.other", "--json"])
        #expect(inUse.status == 11, "\(inUse.stderr)")
        let credential = try #require(inUse.json?["error"]?.objectValue?["pendingCredential"]?.stringValue)
        let signedIn = try await authctl.run(["login", "--credential", credential, "--json"])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(signedIn.json?["user"]?.objectValue?["uid"] == .string(first))
        // The pending tokens are secrets: never printed.
        for secret in firebase.issuedSecrets where secret.hasPrefix("pt-") {
            #expect(!(exists.stdout + exists.stderr + inUse.stdout + inUse.stderr).contains(secret))
        }
    }

    @Test("--id-token - goes to Firebase as postBody with the raw nonce; a wrong nonce is refused (4); Microsoft is refused (2)")
    func idToken() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let token = provider.idToken(provider.behaviour, nonce: "raw-nonce-1", subject: provider.behaviour.subject)
        let login = try await authctl.run(["login", "oidc.corp", "--id-token", "-", "--raw-nonce", "raw-nonce-1"], stdin: Data(token.utf8))
        #expect(login.status == 0, "\(login.stderr)")
        let body = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("signInWithIdp") }?.body)
        #expect(body["requestUri"] == "http://localhost")
        #expect(body["postBody"]?.stringValue?.contains("providerId=oidc.corp") == true)
        #expect(body["postBody"]?.stringValue?.contains("nonce=raw-nonce-1") == true)
        let wrong = try await authctl.run(["login", "oidc.corp", "--id-token", "-", "--raw-nonce", "other"], stdin: Data(token.utf8))
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains(token))
        let microsoft = try await authctl.run(["login", "microsoft.com", "--id-token", "-"], stdin: Data(token.utf8))
        #expect(microsoft.status == 2)
        #expect(microsoft.stderr.contains("only through its own code exchange"))
    }

    @Test("a form_post redirect goes to Firebase as postBody; Microsoft's --tenant as the tenant custom parameter")
    func formPostAndTenant() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let apple = try FakeIdentityProvider()
        firebase.enable("apple.com", provider: apple, formPost: true)
        let login = try await authctl.run(["login", "apple.com"])
        #expect(login.status == 0, "\(login.stderr)")
        let body = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("signInWithIdp") }?.body)
        #expect(body["postBody"]?.stringValue?.contains("code=") == true)
        #expect(body["requestUri"]?.stringValue?.contains("?") == false)
        let microsoft = try FakeIdentityProvider()
        microsoft.update {
            $0.subject = "ms-subject"; $0.email = "megan@contoso.com"
        }
        firebase.enable("microsoft.com", provider: microsoft)
        let signedIn = try await authctl.run([
            "login", "microsoft", "--tenant", "contoso.onmicrosoft.com", "--param", "prompt=select_account",
        ])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        let created = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("createAuthUri") }?.body)
        #expect(created["providerId"] == "microsoft.com")
        #expect(created["customParameter"] == .object(["tenant": "contoso.onmicrosoft.com", "prompt": "select_account"]))
        #expect(microsoft.lastAuthorizationRequest["tenant"] == "contoso.onmicrosoft.com")
        let reserved = try await authctl.run(["login", "microsoft", "--param", "state=mine"])
        #expect(reserved.status == 2 && reserved.stderr.contains("state"), "\(reserved.stderr)")
        let badTenant = try await authctl.run(["login", "microsoft", "--tenant", "not a tenant"])
        #expect(badTenant.status == 2, "\(badTenant.stderr)")
    }

    @Test("Apple through an https forwarding page: --redirect-uri is the continueUri, the listener at --listen-address gets the POST")
    func forwardingPage() async throws {
        let apple = try FakeIdentityProvider()
        firebase.enable("apple.com", provider: apple, formPost: true)
        let probe = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        let port = probe.port
        probe.close()
        let page = "https://forwarder.example/authctl/callback"
        // The page forwards what Apple posts to the listener, as docs/apple.md's page does.
        let forwarding = FollowingBrowser { url in
            url.absoluteString == page ? URL(string: "http://127.0.0.1:\(port)/authctl/callback")! : url
        }
        let authctl = InProcessAuthctl(browser: forwarding)
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--emulator",
            firebase.emulatorHost,
        ])
        #expect(use.status == 0, "\(use.stderr)")
        // Until the page's domain is authorized in the console, Firebase refuses it (exit 7).
        let unauthorized = try await authctl.run(["login", "apple", "--redirect-uri", page, "--listen-address", "127.0.0.1:\(port)"])
        #expect(unauthorized.status == 7 && unauthorized.stderr.contains("Authorized domains"), "\(unauthorized.stderr)")
        firebase.behaviour.authorizedDomains.insert("forwarder.example")
        let login = try await authctl.run(["login", "apple", "--redirect-uri", page, "--listen-address", "127.0.0.1:\(port)"])
        #expect(login.status == 0, "\(login.stderr)")
        let created = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("createAuthUri") }?.body)
        #expect(created["continueUri"] == .string(page))
        #expect(apple.lastAuthorizationRequest["redirect_uri"] == page)
        let signIn = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("signInWithIdp") }?.body)
        #expect(signIn["requestUri"] == .string(page) && signIn["postBody"]?.stringValue?.contains("code=") == true)
        // A page off this machine needs a fixed listener, and https: refused before anything is sent.
        let calls = firebase.receivedRequests.count
        let noPort = try await authctl.run(["login", "apple", "--redirect-uri", page])
        #expect(noPort.status == 2 && noPort.stderr.contains("--listen-address"), "\(noPort.stderr)")
        let plain = try await authctl.run([
            "login", "apple", "--redirect-uri", "http://forwarder.example/cb", "--listen-address", "127.0.0.1:\(port)",
        ])
        #expect(plain.status == 2, "\(plain.stderr)")
        #expect(firebase.receivedRequests.count == calls)
    }

    @Test("a lying Firebase naming a user the keystore holds for another backend cannot take over its record; nothing changes")
    func foreignLocalID() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        try await authctl.run(["backend", "use", "local"]).expectSuccess()
        try await authctl.run([
            "providers", "add", "oidc.corp", "--issuer", provider.issuer, "--client-id", provider.clientID, "--client-secret-env", "S",
        ]).expectSuccess()
        let local = try await authctl.run(["login", "oidc.corp", "--json"], environment: ["S": consoleSecret])
        let uid = try #require(local.json?["user"]?.objectValue?["uid"]?.stringValue, "\(local.stderr)")
        try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--emulator",
            firebase.emulatorHost,
        ]).expectSuccess()
        let before = authctl.keystoreBytes()
        firebase.behaviour.nextLocalID = uid
        let taken = try await authctl.run(["login", "oidc.corp"])
        #expect(taken.status == 4 && taken.stderr.contains(uid), "\(taken.stderr)")
        #expect(authctl.keystoreBytes() == before, "the local user's record was changed")
    }

    @Test("a pending credential Firebase saved is never applied by the local backend: refused, the keystore unchanged")
    func brokeredPendingStaysWithFirebase() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let other = try FakeIdentityProvider()
        other.update { $0.subject = "other-subject" }
        firebase.enable("oidc.other", provider: other)
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let exists = try await authctl.run(["login", "oidc.other", "--json"])
        let handle = try #require(exists.json?["error"]?.objectValue?["pendingCredential"]?.stringValue, "\(exists.stderr)")
        try await authctl.run(["backend", "use", "local"]).expectSuccess()
        let before = authctl.keystoreBytes()
        for command in [["login", "--credential", handle], ["link", "--pending", handle]] {
            let applied = try await authctl.run(command)
            #expect(applied.status == 2 && applied.stderr.contains("backend use firebase"), "\(command): \(applied.stderr)")
            #expect(authctl.keystoreBytes() == before, "\(command)")
        }
    }

    @Test("a lying Firebase answer with a uid, provider id or token no Firebase issues is refused; nothing is stored or shown")
    func malformedAnswer() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let escape = "\u{1B}]0;pwned\u{07}\u{1B}[31m"
        for (field, value) in [("localId", "evil" + escape), ("providerId", "oidc.corp" + escape), ("refreshToken", "AMf-x;$(id)\r\nX: 1")]
        {
            var answer: [String: JSONValue] = [
                "localId": "uid-lie", "refreshToken": "AMf-good", "providerId": "oidc.corp", "expiresIn": "3600",
            ]
            answer[field] = .string(value)
            // An ID token that passes every claim check for the uid it names (the emulator signs none).
            let claims: JSONValue = .object([
                "iss": .string("https://securetoken.google.com/\(firebase.projectID)"), "aud": .string(firebase.projectID),
                "sub": answer["localId"] ?? "uid-lie", "exp": .number((Date().timeIntervalSince1970 + 3000).rounded()),
            ])
            answer["idToken"] = .string("e30." + Base64URL.encode(Array(try JSONEncoder().encode(claims))) + ".sig")
            firebase.behaviour.overrides = [
                "accounts:signInWithIdp": FakeHTTP.json(.object(answer)),
                "accounts:lookup": FakeHTTP.json(
                    .object([
                        "users": .array([
                            .object([
                                "localId": answer["localId"] ?? "uid-lie",
                                "providerUserInfo": .array([.object(["providerId": answer["providerId"] ?? "oidc.corp", "rawId": "raw-1"])]
                                ),
                            ])
                        ])
                    ])),
            ]
            let before = authctl.keystoreBytes()
            let lied = try await authctl.run(["login", "oidc.corp"])
            #expect(lied.status != 0, "\(field)")
            #expect(!lied.stderr.contains("\u{1B}") && !lied.stdout.contains("\u{1B}"), "\(field): \(lied.stderr)")
            #expect(authctl.keystoreBytes() == before, "\(field)")
        }
        firebase.behaviour.overrides = [:]
    }

    @Test("a lying securetoken refresh with a header line in its ID token is refused; token never prints it")
    func malformedRefresh() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let uid = try #require(firebase.users.first?.localID)
        let claims: JSONValue = .object([
            "iss": .string("https://securetoken.google.com/\(firebase.projectID)"), "aud": .string(firebase.projectID),
            "sub": .string(uid), "exp": .number((Date().timeIntervalSince1970 + 3000).rounded()),
        ])
        let idToken = "e30." + Base64URL.encode(Array(try JSONEncoder().encode(claims))) + ".sig\r\nX-Injected: 1"
        firebase.behaviour.overrides = [
            "v1/token": FakeHTTP.json(
                .object([
                    "id_token": .string(idToken), "refresh_token": "AMf-next", "expires_in": "3600", "user_id": .string(uid),
                ]))
        ]
        defer { firebase.behaviour.overrides = [:] }
        let before = authctl.keystoreBytes()
        let header = try await authctl.run(["token", "--force-refresh", "--format", "header"])
        #expect(header.status != 0 && !header.stdout.contains("X-Injected"), "\(header.stdout)\(header.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a session is used only with the service it came from: another FIREBASE_AUTH_EMULATOR_HOST never gets its refresh token")
    func sessionBoundToItsService() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let impostor = try FakeFirebaseAuth()
        let before = authctl.keystoreBytes()
        for command in [["token", "--force-refresh"], ["users", "delete"], ["link", "oidc.other"]] {
            let moved = try await authctl.run(command, environment: ["FIREBASE_AUTH_EMULATOR_HOST": impostor.emulatorHost])
            #expect(moved.status == 2 && moved.stderr.contains(firebase.emulatorHost), "\(command): \(moved.stderr)")
            #expect(impostor.receivedRequests.isEmpty, "\(command) reached another service")
            #expect(authctl.keystoreBytes() == before, "\(command)")
        }
        // With its own service it goes on as before.
        #expect(try await authctl.run(["token", "--force-refresh"]).status == 0)
    }

    @Test("a provider that sends iss on the redirect (RFC 9207): the redirect goes to Firebase with it, which checks it")
    func issuerOnRedirect() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        provider.update { $0.sendIssuerOnRedirect = true }
        let login = try await authctl.run(["login", "oidc.corp"])
        #expect(login.status == 0, "\(login.stderr)")
        let body = try #require(firebase.receivedRequests.last { $0.path.hasSuffix("signInWithIdp") }?.body)
        #expect(body["requestUri"]?.stringValue?.contains("iss=") == true)
    }

    @Test("an Identity Platform tenant: every call names it, the user records it; a token of another tenant is refused")
    func tenant() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--tenant-id", "tenant-a",
            "--emulator", firebase.emulatorHost,
        ])
        #expect(use.status == 0, "\(use.stderr)")
        let login = try await authctl.run(["login", "oidc.corp", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        for path in ["createAuthUri", "signInWithIdp"] {
            let body = try #require(firebase.receivedRequests.last { $0.path.hasSuffix(path) }?.body)
            #expect(body["tenantId"] == "tenant-a", "\(path)")
        }
        #expect(firebase.users.first?.tenantID == "tenant-a")
        #expect(login.json?["user"]?.objectValue?["backend"]?.objectValue?["tenantId"] == "tenant-a")
        let token = try await authctl.run(["token"])
        #expect(claims(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines))?["firebase"]?.objectValue?["tenant"] == "tenant-a")
        #expect(try await authctl.run(["status"]).stdout.contains("firebase:\(firebase.projectID)/tenant-a"))

        // The service answers with a token of another tenant: refused, nothing stored.
        try await authctl.run(["signout"]).expectSuccess()
        let before = authctl.keystoreBytes()
        firebase.behaviour.idTokenTenant = "tenant-b"
        let lied = try await authctl.run(["login", "oidc.corp"])
        #expect(lied.status == 4 && lied.stderr.contains("tenant"), "\(lied.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a sealed keystore: the Firebase session is sealed, token works with the key (cached and refreshed), status without")
    func sealed() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        #expect(try await authctl.run(["login", "oidc.corp"]).status == 0)
        let made = try await authctl.run(["keystore", "new-key"])
        let key = authctl.home + "/key"
        try Data(made.stdout.utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        for secret in firebase.issuedSecrets where secret.hasPrefix("AMf-") || secret.hasPrefix("ey") { #expect(!text.contains(secret)) }
        #expect(rename(key, key + ".away") == 0)
        #expect(try await authctl.run(["token"]).status == 6)
        #expect(rename(key + ".away", key) == 0)
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        let cached = try await authctl.run(["token"], environment: environment)
        #expect(cached.status == 0, "\(cached.stderr)")
        authctl.clock.advance(by: 5)
        let refreshed = try await authctl.run(["token", "--min-ttl", "7200"], environment: environment)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(firebase.count("token") == 1)
        let after = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!after.contains(refreshed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await authctl.run(["status"]).stdout.contains("firebase:"))
    }

    @Test("a provider not enabled in the project: exit 7 saying where to enable it; FIREBASE_AUTH_EMULATOR_HOST off loopback: exit 2")
    func notEnabledAndEmulatorHost() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let notEnabled = try await authctl.run(["login", "oidc.absent"])
        #expect(notEnabled.status == 7, "\(notEnabled.stderr)")
        #expect(notEnabled.stderr.contains("Sign-in method"))
        let remote = try await authctl.run(["login", "oidc.corp"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "emulator.example:9099"])
        #expect(remote.status == 2, "\(remote.stderr)")
        #expect(remote.stderr.contains("FIREBASE_AUTH_EMULATOR_HOST"))
        // The variable overrides --emulator: a dead port there fails the call.
        let dead = try await authctl.run(
            ["login", "oidc.corp", "--timeout", "5"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9"])
        #expect(dead.status == 3, "\(dead.stderr)")
        #expect(!dead.stderr.contains(firebase.apiKey))
    }
}
