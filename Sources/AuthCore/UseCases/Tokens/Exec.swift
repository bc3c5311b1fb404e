/// `authctl exec [--provider P] [--scope S]… -- CMD ARGS…`: runs a command with a valid
/// token, and keeps it valid for as long as the command runs (docs/authctl.1, docs/ci.md).
///
/// The child gets `AUTHCTL_TOKEN` (valid when it starts) and `AUTHCTL_TOKEN_FILE`, a file
/// only this user can read that authctl rewrites with a fresh token before the old one
/// expires; a long-running child reads the file (or runs `authctl token`) when it needs the
/// token. The file and its directory are removed when the child ends.
public struct Exec: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var scopes: [String]
        /// The ID token instead of the access token (Azure's `AZURE_FEDERATED_TOKEN_FILE`, docs/cloud.md).
        public var idToken = false
        public var command: [String]
        /// authctl's own environment without its secrets, passed on to the child.
        public var environment: ChildEnvironment
        /// Where the private token file goes (`$XDG_RUNTIME_DIR`, else the temporary directory).
        public var runtimeDirectory: String
        /// Where the keystore's key is kept (the keystore's `KeystoreKeys.memory`): refreshes
        /// open the keystore with it, and nothing is asked once the command runs.
        public var keystoreKeys: KeystoreKeyMemory?
        /// The user whose token to give (a rule's or `--user`'s, docs/identities.md); nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?

        public init(
            providerID: ProviderID? = nil, scopes: [String] = [], command: [String], environment: ChildEnvironment,
            runtimeDirectory: String,
            keystoreKeys: KeystoreKeyMemory? = nil
        ) {
            self.keystoreKeys = keystoreKeys
            self.providerID = providerID
            self.scopes = scopes
            self.command = command
            self.environment = environment
            self.runtimeDirectory = runtimeDirectory
        }
    }

    let tokens: TokenRefresh
    let clock: any Clock
    let random: any RandomSource
    let events: any AuthEventSink
    let runner: any ChildProcessRunner

    public init(
        tokens: TokenRefresh, clock: any Clock, random: any RandomSource, events: any AuthEventSink, runner: any ChildProcessRunner
    ) {
        self.tokens = tokens
        self.clock = clock
        self.random = random
        self.events = events
        self.runner = runner
    }

    /// The child's exit status.
    public func run(_ input: Input) async throws -> Int32 {
        guard !input.command.isEmpty else {
            throw AuthError.invalidArgument("give the command to run: \(command: .exec, .endOfOptions, "COMMAND", "ARGS…")")
        }
        // A passphrase is asked (if at all) here, before the command starts: the command
        // shares the terminal, and a prompt while it runs would hand it what is typed.
        let first = try await tokens.run(
            .init(providerID: input.providerID, idToken: input.idToken, scopes: input.scopes, uid: input.uid, chosenBy: input.chosenBy)
        ).requireBearer(for: "the command (through AUTHCTL_TOKEN)")
        input.keystoreKeys?.stopAsking()
        if let stale = first.stillValidEvent(now: clock.now()) { events.report(stale) }
        let directory = try PrivateDirectory.create(under: input.runtimeDirectory, random: random)
        defer { directory.remove() }
        let file = directory.path + "/token"
        try write(first.token, to: file)

        var childEnvironment = input.environment
        childEnvironment.set("AUTHCTL_TOKEN", to: first.token)
        childEnvironment.set("AUTHCTL_TOKEN_FILE", to: file)
        childEnvironment.set("AUTHCTL_PROVIDER", to: first.providerID)

        let keeper = Task { await keepFresh(file, from: first, input: input) }
        // The keeper is stopped and waited for before the directory goes: a refresh that
        // finished after the removal would write the token file (and its directory) again.
        let status: Result<Int32, any Error>
        do {
            status = .success(try await runner.run(input.command, environment: childEnvironment))
        } catch {
            status = .failure(error)
        }
        keeper.cancel()
        await keeper.value
        return try status.get()
    }

    /// Rewrites the file before each token expires, with the tokens of the user the command
    /// started with (another process may switch the current user meanwhile). A failed
    /// refresh is reported and retried; the child goes on with the token it has.
    func keepFresh(_ file: String, from first: TokenRefresh.Output, input: Input) async {
        var current = first
        while !Task.isCancelled {
            guard let expiresAt = current.expiresAt else { return }  // a token without a known lifetime
            let remaining = expiresAt.timeIntervalSince(clock.now())
            // Refresh a minute before expiry, or halfway for short-lived tokens.
            let margin = min(60, max(remaining, 2) / 2)
            do {
                try await clock.sleep(for: max(1, remaining - margin))
                current = try await tokens.run(
                    .init(
                        providerID: input.providerID, idToken: input.idToken, minimumTTL: margin + 1, scopes: input.scopes, uid: first.uid))
                if Task.isCancelled { return }
                // The provider out of reach: the file keeps the token it has; tried again.
                if let failure = current.refreshFailure { throw failure }
                try write(current.token, to: file)
            } catch is CancellationError {
                return
            } catch let error as AuthError {
                events.report(.runningCommandRefreshFailed(error))
                try? await clock.sleep(for: 10)
            } catch {
                return
            }
        }
    }

    func write(_ token: String, to file: String) throws {
        try SafeFile.writeAtomically(Data(token.utf8), to: file, what: "the token file", random: random)
    }
}
