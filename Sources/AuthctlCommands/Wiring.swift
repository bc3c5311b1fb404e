import AuthCore
import Synchronization

/// The one place where the real implementations (`Adapters/`) are chosen and wired, from the
/// I/O the entry point was given (`AuthctlIO`) and the command's global options. The entry
/// point builds one per command and hands it to the command (`WiredCommand`).
struct Wiring: CommandFiles {
    /// The global options as plain values (`GlobalOptions`, or the token fast path's parser).
    struct Settings: Equatable {
        var keystore: String?
        var config: String?
        var json = false
        var verbose = false
        var quiet = false
        /// `--user`: the user to act as (uid or email), over `AUTHCTL_USER` and the rules.
        var user: String?
    }

    let options: Settings
    let io: AuthctlIO
    /// Where the keystore's key is kept once it opened (`exec`), nil: nowhere. Set it before
    /// the first `useCases()`: the graph's keystore is made then, with the memory it finds.
    var keyMemory: KeystoreKeyMemory?
    var environment: [String: String] { io.environment }

    /// config.json, read once for the whole command (`ConfigStore`).
    let config: ConfigStore
    /// The command's object graph once built (`useCases`); copies of this `Wiring` share it.
    private let graph = GraphOnce()

    init(settings: Settings, io: AuthctlIO) {
        options = settings
        self.io = io
        config = ConfigStore(storage: io.configStorage(FastPathFiles(options: settings, io: io).configPath))
    }

    /// Results on stdout, messages on stderr.
    var output: Output { Output(stdout: io.stdout, stderr: io.stderr) }

    var cacheDirectory: String { "\(xdg("XDG_CACHE_HOME", ".cache"))/authctl" }

    /// Where `exec` keeps its token file: `$XDG_RUNTIME_DIR` (per user, in memory, emptied at
    /// logout) when it names an existing directory, else the temporary directory.
    var runtimeDirectory: String {
        if let value = environment["XDG_RUNTIME_DIR"], value.hasPrefix("/"), Path.isDirectory(value) {
            return value
        }
        return Path.temporaryDirectory(environment: environment)
    }

    var terminal: StderrTerminal {
        StderrTerminal(
            verbose: options.verbose, quiet: options.quiet, colors: Self.colorsAllowed(environment), stdin: io.stdin, stderr: io.stderr)
    }

    /// Asks on the terminal, echo off: the line typed ("" for an empty one), nil at the end of
    /// input (or a line too long). Ctrl-C throws `PromptInterrupted` (exit 130).
    static func askPassphrase(_ prompt: String, io: AuthctlIO) throws -> String? {
        // Echo goes off before the prompt shows (as readpassphrase(3) does): what is typed
        // once the prompt is there is neither shown nor discarded by the terminal's flush.
        defer { try? io.stderr.write(Array("\n".utf8)) }
        do {
            return try io.stdin.withoutEcho {
                try? io.stderr.write(Array(prompt.utf8))
                return try io.stdin.readLine(limit: 4096)
            }
        } catch is CancellationError {
            throw PromptInterrupted()
        } catch {
            return nil
        }
    }

    /// Before a destructive change (`users delete`, `providers remove`, `keystore unseal`): a
    /// person at a terminal is asked, unless `--yes` was given; without a terminal nobody is
    /// asked and the command goes on as it always did. No, or Ctrl-C at the question: the
    /// command ends with exit 130 and nothing changed.
    func confirm(_ question: String, yes: Bool) throws {
        let terminal = self.terminal
        guard !yes, terminal.isInteractive else { return }
        let answer = terminal.confirm(question)
        if Task.isCancelled { throw CancellationError() }
        if !answer { throw Interrupted(reason: "not confirmed; nothing was changed") }
    }

    func configStore() -> ConfigStore { config }

    /// The one provider of config.json, to name in "sign in first" when nothing else says
    /// which; nil with none, several, or a configuration that does not load.
    func onlyConfiguredProvider() -> String? {
        guard let providers = try? configStore().load().providers, providers.count == 1 else { return nil }
        return providers.first?.key
    }

    /// Client secrets, keys and federated tokens as the configuration points to them — never
    /// the keystore's own files: the keystore, its lock, and its key file (the one
    /// `AUTHCTL_KEYSTORE_KEY_FILE` names, and the one the keystore names), found when a secret
    /// file is read.
    var secretSource: ProcessSecretSource {
        let path = keystorePath
        let keyFile = io.variable("AUTHCTL_KEYSTORE_KEY_FILE") ?? ""
        let keystore = FileKeystore(path: path, random: SystemRandomSource(), clock: SystemClock(), keys: KeystoreKeys())
        return ProcessSecretSource(environment: environment) {
            [path, path + ".lock", keyFile, (try? keystore.sealStatus().keyFile) ?? ""]
        }
    }

    /// The `User-Agent` of every request to a provider.
    static let userAgent = "authctl/\(AuthctlVersion.string)"

    /// The command's object graph (`UseCaseGraph`), built once from the real implementations
    /// at the first use case asked for: every use case of the command shares its
    /// `TokenClient`, so a DPoP nonce learned by one is sent by the next. `browser`: the one the
    /// command's options chose (`browser(command:disabled:)`), none by default.
    func useCases(browser: any BrowserLauncher = NoBrowserLauncher()) -> UseCaseGraph {
        graph.built { makeGraph() }.with(browser: browser)
    }

    private func makeGraph() -> UseCaseGraph {
        let terminal = self.terminal
        let clock = io.clock
        let random = SystemRandomSource()
        let transport = LoggingTransport(
            LazyTransport { [environment] in CurlTransport(userAgent: Self.userAgent, environment: environment) }, terminal: terminal,
            clock: clock)
        let config = self.config
        let emulator = firebaseEmulatorHost
        return UseCaseGraph(
            UseCasePorts(
                transport: transport, clock: clock, random: random, browser: NoBrowserLauncher(), keystore: keystore(),
                configStore: config, metadataCache: FileMetadataCache(directory: cacheDirectory, random: random),
                secrets: secretSource, events: EventText(terminal: terminal, hostName: Self.hostName()),
                // The 403 page of another local user's connection names the way out (docs/sign-in.md step 3).
                redirectReceivers: SystemRedirectReceivers(
                    clock: clock, random: random,
                    otherUserPage: SignInPage.otherUser(
                        allowedBy: "\(MessageSpelling.option(.allowAnyLocalUser)) (or AUTHCTL_ALLOW_ANY_LOCAL_USER=1)"),
                    peers: ProcNetTCPPeerLookup()
                ) {
                    await terminal.readInput(prompt: StderrTerminal.pastePrompt)
                },
                prompt: TerminalConsentPrompt(terminal), firebaseEmulatorHost: emulator,
                firebase: {
                    // docs/firebase.md: the project of config.json's backend, at the emulator when one is set.
                    guard let project = try config.firebaseBackend() else { return nil }
                    return try FirebaseAuthClient(
                        config: project, emulator: try Self.firebaseEmulator(emulator), transport: transport, clock: clock)
                },
                registrationSecretsPath: Path.parent(of: keystorePath) + "/registrations.json"))
    }

    /// `FIREBASE_AUTH_EMULATOR_HOST` as the environment gives it (as Firebase's own tools
    /// read it; it overrides `--emulator`); empty means unset.
    var firebaseEmulatorHost: String? { environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `FIREBASE_AUTH_EMULATOR_HOST` parsed, loopback only.
    static func firebaseEmulator(_ value: String?) throws -> FirebaseEmulatorHost? {
        try value.map { try FirebaseEmulatorHost(parsing: $0, from: .environment) }
    }

    /// The browser command a person chose: `--browser-command CMD`, else `AUTHCTL_BROWSER`
    /// (the same in every command, step-up in `request` included); nil when neither names one.
    /// The one place that decides it (issue 38).
    func browserCommand(_ option: String?) -> String? {
        guard let command = option ?? environment["AUTHCTL_BROWSER"], !command.trimming(.whitespaces).isEmpty else { return nil }
        return command
    }

    /// `--no-browser`, `--browser-command CMD` (env AUTHCTL_BROWSER), or the desktop's browser:
    /// made when it is first started (`DeferredBrowserLauncher`), as the secrets it hides are read then.
    func browser(command: String?, disabled: Bool) -> any BrowserLauncher {
        if disabled { return NoBrowserLauncher() }
        return DeferredBrowserLauncher { [self] in
            if let command = browserCommand(command) {
                return CommandBrowserLauncher(command: command, environment: childEnvironment)
            }
            return io.browser.hiding(configuredSecrets)
        }
    }

    /// The environment of every program authctl starts: this one without the variables that
    /// hold or unlock a secret (`ChildEnvironment.secretVariables`, and those the providers
    /// and workloads read their secrets from).
    var childEnvironment: ChildEnvironment { ChildEnvironment(scrubbing: environment, configured: configuredSecrets) }

    /// The variables config.json's providers and the keystore's workloads read secrets from;
    /// what cannot be read names none (the command that needs it reports the problem).
    var configuredSecrets: Set<String> {
        let providers = (try? configStore().load().providers.values).map(Array.init) ?? []
        return ChildEnvironment.configuredSecrets(providers: providers, accounts: try? keystore().readProfiles())
    }
}

/// The object graph of one command, built at most once (`Wiring.useCases`).
final class GraphOnce: Sendable {
    private let graph = Mutex<UseCaseGraph?>(nil)

    func built(_ make: () -> UseCaseGraph) -> UseCaseGraph {
        graph.withLock { graph in
            if let graph { return graph }
            let made = make()
            graph = made
            return made
        }
    }
}

/// Ctrl-C at a prompt that is not a sign-in's (the keystore's passphrase): the command ends
/// with 130, as a shell reports an interrupted program (docs/exit-codes.md); nothing was changed.
struct PromptInterrupted: Error {}

extension Wiring {
    /// Colours unless `NO_COLOR` is set and not empty (no-color.org) or the terminal says it
    /// has none (`TERM=dumb`, as Emacs's shell sets it); only ever on a terminal.
    static func colorsAllowed(_ environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
