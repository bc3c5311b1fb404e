import ArgumentParser
import AuthCore

/// `authctl backend use local|firebase`, `authctl backend show` (docs/authctl.1, docs/firebase.md).
struct BackendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Choose where users live: the local keystore (default) or a Firebase project.",
        subcommands: [Use.self, Show.self])

    struct Use: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "use",
            abstract: "Use the local keystore, or a Firebase project, as the user database.",
            discussion:
                "With firebase, sign-ins are brokered by Firebase Authentication and the project holds the users; the keystore keeps the signed-in session. FIREBASE_AUTH_EMULATOR_HOST overrides --emulator."
        )

        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case local, firebase
        }

        @Argument(help: "local or firebase.") var kind: Kind
        @Option(name: .customLong("project"), help: ArgumentHelp("firebase: the project id.", valueName: "id")) var project: String?
        @Option(
            name: .customLong("api-key"),
            help: ArgumentHelp("firebase: the project's Web API key (never printed).", valueName: "key")) var apiKey: String?
        @Option(
            name: .customLong("tenant-id"),
            help: ArgumentHelp("firebase: the Identity Platform tenant users sign in to.", valueName: "tenant")) var tenantID: String?
        @Option(
            name: .customLong("emulator"),
            help: ArgumentHelp("firebase: the Auth emulator on this machine.", valueName: "host:port")) var emulator: String?
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if kind == .local, project != nil || apiKey != nil || tenantID != nil || emulator != nil {
                throw ValidationError(
                    "backend use local takes no option: --project, --api-key, --tenant-id and --emulator are for firebase")
            }
            if kind == .firebase, project == nil || apiKey == nil {
                throw ValidationError("backend use firebase needs --project ID and --api-key KEY (the Firebase console's project settings)")
            }
        }

        func run(_ wiring: Wiring) async throws {
            let backends = Backends(configStore: wiring.configStore())
            switch kind {
            case .local:
                try await backends.useLocal()
                BackendCommand.print(Backends.Setting(), wiring: wiring, json: global.json)
            case .firebase:
                let config = FirebaseConfig(projectId: project ?? "", apiKey: apiKey ?? "", tenantId: tenantID, emulator: emulator)
                BackendCommand.print(try await backends.useFirebase(config), wiring: wiring, json: global.json)
            }
        }
    }

    struct Show: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show where users live.")

        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            BackendCommand.print(try Backends(configStore: wiring.configStore()).show(), wiring: wiring, json: global.json)
        }
    }

    /// The setting, never the API key (only whether one is set).
    static func print(_ setting: Backends.Setting, wiring: Wiring, json: Bool) {
        let emulator = wiring.firebaseEmulatorHost ?? setting.firebase?.emulator
        if json {
            var fields: [String: JSONValue] = ["backend": .string(setting.name)]
            if let firebase = setting.firebase {
                fields["projectId"] = .string(firebase.projectId)
                fields["tenantId"] = Output.optional(firebase.tenantId)
                fields["emulator"] = Output.optional(emulator)
                fields["apiKeySet"] = .bool(!firebase.apiKey.isEmpty)
            }
            wiring.output.json(.object(fields))
            return
        }
        guard let firebase = setting.firebase else {
            wiring.output.line("backend: local (users live in the keystore)")
            return
        }
        wiring.output.line("backend:  firebase")
        wiring.output.line("project:  \(firebase.projectId)")
        if let tenant = firebase.tenantId { wiring.output.line("tenant:   \(tenant)") }
        wiring.output.line("api key:  set (not shown)")
        wiring.output.line("endpoint: \(emulator.map { "the Auth emulator at \($0)" } ?? "https://identitytoolkit.googleapis.com")")
    }
}
