import ArgumentParser
import AuthCore

struct ExecCommand: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command with a valid token in AUTHCTL_TOKEN, kept valid for as long as it runs.",
        discussion: """
            The command gets AUTHCTL_TOKEN (valid when it starts), AUTHCTL_PROVIDER, and AUTHCTL_TOKEN_FILE: a private \
            file that authctl rewrites with a fresh token before the old one expires. Long-running commands read the \
            file when they need the token. authctl exits with the command's status.
            The token goes to another program on a pipe or in a file, never in an argument (every local user can read \
            a process's arguments).
            A command that does not exist exits 127, one that cannot be run 126, as a shell reports them.

            Examples:
              authctl exec -- ./deploy.sh
              authctl exec -- sh -c \\
                  'printf "Authorization: Bearer %s\\n" "$AUTHCTL_TOKEN" |
                   curl -H @- https://api.example.com/'
              authctl exec --provider microsoft.com \\
                  --scope https://graph.microsoft.com/.default -- ./sync.py
            """)

    @Option(help: "The provider whose token to use (default: the one of the last sign-in).", completion: Completions.providerIDs)
    var provider: String?
    @Option(name: .customLong("scope"), help: ArgumentHelp("Ask a token for these scopes instead (repeatable).", valueName: "scope"))
    var scopes: [String] = []
    @Flag(
        name: .customLong("id-token"),
        help: "Give the ID token instead of the access token (Azure workload identity: AZURE_FEDERATED_TOKEN_FILE=$AUTHCTL_TOKEN_FILE).")
    var idToken = false
    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.") var command: [String] = []
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the command to run after --: authctl exec -- COMMAND ARGS…") }
        guard !(idToken && !scopes.isEmpty) else { throw ValidationError("--id-token and --scope exclude each other") }
    }

    func run(_ wiring: Wiring) async throws {
        // The keystore opens once, before the command starts (asking then, if it must); the
        // refreshes while it runs open it with the key kept in memory and never ask.
        var wiring = wiring
        let keys = KeystoreKeyMemory()
        wiring.keyMemory = keys
        // The identity a rule, --user or AUTHCTL_USER chose (docs/identities.md).
        let chosen = try wiring.chosenIdentity()
        var input = Exec.Input(
            providerID: try chosen.providerID(provider), scopes: scopes, command: command,
            environment: wiring.childEnvironment, runtimeDirectory: wiring.runtimeDirectory, keystoreKeys: keys)
        input.idToken = idToken
        input.uid = chosen.uid
        input.chosenBy = chosen.chosenBy
        let status = try await wiring.useCases().exec(runner: wiring.io.childProcesses).run(input)
        if status != 0 { throw ExitCode(status) }
    }
}
