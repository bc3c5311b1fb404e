import AuthCore

/// How the command line spells what AuthCore names in its messages: a `Message.Verb` is a
/// subcommand (`authctl users list`), a `Message.Input` an option (`--client-secret-env`).
/// The one place where the core's values become command-line words; a test holds every
/// spelling to the commands and options the binary has.
enum MessageSpelling {
    static func words(_ message: Message) -> String {
        message.spelled(command: command, input: option, moveAside: moveAside)
    }

    /// The shell command that moves a damaged file to `PATH.bad`, each path quoted for a
    /// POSIX shell (a `'` in it written `'\''`).
    static func moveAside(_ path: String) -> String {
        "mv \(shellQuoted(path)) \(shellQuoted(path + ".bad"))"
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacingEvery("'", with: #"'\''"#) + "'" }

    static func command(_ verb: Message.Verb, _ arguments: [Message.Argument]) -> String {
        (["authctl", subcommand(verb)] + arguments.map(argument)).joined(separator: " ")
    }

    static func argument(_ argument: Message.Argument) -> String {
        switch argument {
        case .value(let value): value
        case .input(let input, let value): value.map { "\(option(input)) \($0)" } ?? option(input)
        case .endOfOptions: "--"
        }
    }

    static func subcommand(_ verb: Message.Verb) -> String {
        switch verb {
        case .login: "login"
        case .link: "link"
        case .reauthenticate: "reauth"
        case .unlink: "unlink"
        case .signOut: "signout"
        case .status: "status"
        case .token: "token"
        case .exec: "exec"
        case .gitCredential: "git-credential"
        case .usersList: "users list"
        case .usersExport: "users export"
        case .usersDelete: "users delete"
        case .usersPhoto: "users photo"
        case .providersAdd: "providers add"
        case .providersShow: "providers show"
        case .providersList: "providers list"
        case .providersRemove: "providers remove"
        case .keystoreStatus: "keystore status"
        case .keystoreSeal: "keystore seal"
        case .keystoreUnseal: "keystore unseal"
        case .keystoreRekey: "keystore rekey"
        case .keystoreNewKey: "keystore new-key"
        case .unlock: "unlock"
        case .lock: "lock"
        case .backendUse: "backend use"
        case .backendShow: "backend show"
        case .awsCredentials: "aws-credentials"
        case .gcpToken: "gcp-token"
        case .request: "request"
        case .rulesAdd: "rules add"
        case .rulesList: "rules list"
        case .rulesRemove: "rules remove"
        case .rulesExplain: "rules explain"
        case .kubeconfigSetCredentials: "kubeconfig set-credentials"
        case .bootstrap: "bootstrap"
        }
    }

    static func option(_ input: Message.Input) -> String {
        switch input {
        case .allowAnyLocalUser: "--allow-any-local-user"
        case .authorityHost: "--authority-host"
        case .browserCommand: "--browser-command"
        case .clientID: "--client-id"
        case .clientSecretEnv: "--client-secret-env"
        case .clientSecretFile: "--client-secret-file"
        case .clientCertificateFile: "--client-certificate-file"
        case .keyFile: "--key-file"
        case .passphraseEnv: "--passphrase-env"
        case .passphraseFile: "--passphrase-file"
        case .keyring: "--keyring"
        case .config: "--config"
        case .consent: "--consent"
        case .provider: "--provider"
        case .dryRun: "--dry-run"
        case .via: "--via"
        case .credential: "--credential"
        case .deviceCode: "--device-code"
        case .flow: "--flow"
        case .format: "--format"
        case .graphHost: "--graph-host"
        case .idToken: "--id-token"
        case .issuer: "--issuer"
        case .keyID: "--key-id"
        case .keystore: "--keystore"
        case .listenAddress: "--listen-address"
        case .manual: "--manual"
        case .ciba: "--ciba"
        case .loginHint: "--login-hint"
        case .bindingMessage: "--binding-message"
        case .remote: "--remote"
        case .noBrowser: "--no-browser"
        case .parameter: "--param"
        case .pending: "--pending"
        case .privateKeyFile: "--private-key-file"
        case .rawNonce: "--raw-nonce"
        case .redirectURI: "--redirect-uri"
        case .scope: "--scope"
        case .teamID: "--team-id"
        case .tenant: "--tenant"
        case .timeout: "--timeout"
        case .clientCredentials: "--client-credentials"
        case .jwtBearer: "--jwt-bearer"
        case .certificateFile: "--certificate-file"
        case .federatedToken: "--federated-token"
        case .federatedTokenFile: "--federated-token-file"
        case .federatedTokenEnv: "--federated-token-env"
        case .federatedAudience: "--federated-audience"
        case .project: "--project"
        case .apiKey: "--api-key"
        case .tenantID: "--tenant-id"
        case .emulator: "--emulator"
        case .noCheck: "--no-check"
        case .preset: "--preset"
        case .domain: "--domain"
        case .realm: "--realm"
        case .authorizationServer: "--authorization-server"
        case .dpop: "--dpop"
        case .par: "--par"
        case .profile: "--profile"
        case .authorizationDetails: "--authorization-details"
        case .method: "--method"
        case .url: "--url"
        case .exchange: "--exchange"
        case .audience: "--audience"
        case .resource: "--resource"
        case .requestedTokenType: "--requested-token-type"
        case .subjectTokenType: "--subject-token-type"
        case .actorTokenFile: "--actor-token-file"
        case .actorTokenEnv: "--actor-token-env"
        case .roleARN: "--role-arn"
        case .sessionName: "--session-name"
        case .duration: "--duration"
        case .stsEndpoint: "--sts-endpoint"
        case .awsRegion: "--region"
        case .clientMetadataURL: "--client-metadata-url"
        case .user: "--user"
        }
    }
}
