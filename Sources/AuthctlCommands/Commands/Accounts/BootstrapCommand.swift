import ArgumentParser
import AuthCore

/// `authctl bootstrap ARGUMENT` (docs/remote.md): the browser half of `login --remote`, run on
/// a machine with a browser.
struct BootstrapCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap",
        abstract: "Finish the browser part of a 'login --remote' started on another machine.",
        discussion: """
            Run the command that 'authctl login PROVIDER --remote' printed on the machine without a browser. \
            authctl opens the browser here, receives the provider's redirect on this machine's loopback address, \
            and prints as its last line the text to paste back into the waiting login. It needs no configuration \
            or keystore here and writes nothing; the code is exchanged on the other machine, with the PKCE \
            verifier that never left it.
            """)

    @Argument(help: "The argument 'authctl login --remote' printed (one shell-quoted word).") var argument: String

    @Option(
        name: .customLong("browser-command"),
        help: ArgumentHelp(
            "Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).", valueName: "command"))
    var browserCommand: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for the browser's redirect.", valueName: "seconds"))
    var timeout: Int = 300

    @Flag(
        name: .customLong("allow-any-local-user"),
        help:
            "Let other local users' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser's connection is relayed by another user's process (WSL, some containers)."
    )
    var allowAnyLocalUser = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard FlowArguments.timeoutRange.contains(timeout) else {
            throw ValidationError("--timeout \(timeout) is out of range: give 1…86400 seconds (a day at most)")
        }
        guard argument.utf8.count <= RemoteBootstrap.maximumLength else {
            throw ValidationError("the argument is longer than any 'login --remote' prints: copy it again")
        }
    }

    func run(_ wiring: Wiring) async throws {
        let line = try await wiring.bootstrap(browserCommand: browserCommand).run(
            .init(
                argument: argument, timeout: TimeInterval(timeout),
                allowAnyLocalUser: allowAnyLocalUser || wiring.environment["AUTHCTL_ALLOW_ANY_LOCAL_USER"] == "1"))
        if global.json {
            wiring.output.json(.object(["paste": .string(line)]))
            return
        }
        wiring.terminal.notice("Paste this line into the waiting 'authctl login --remote' on the other machine:")
        wiring.output.line(line)
    }
}
