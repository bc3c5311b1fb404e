/// `authctl kubeconfig set-credentials NAME` (docs/identities.md): a kubeconfig user whose exec
/// credential plugin runs `authctl token --format kubectl-exec` (client.authentication.k8s.io/v1,
/// `interactiveMode: IfAvailable`), as kubelogin's `setup` suggests. The entry named NAME is
/// replaced, or added; the rest of the file is kept (its comments are not: kubectl drops them
/// too). Written atomically, 0600, to a file that is the user's own (not a symbolic link, not
/// another user's), while holding kubectl's own lock (`FILE.lock`, made and removed as
/// client-go does), so that a kubectl writing at the same time is not overwritten.
public struct KubeconfigSetup: Sendable {
    public struct Input: Sendable {
        public var name: String
        public var path: String
        /// The program kubectl runs (authctl's path, or `authctl` to find it on PATH).
        public var command: String
        public var arguments: [String]
        public var dryRun: Bool

        public init(name: String, path: String, command: String, arguments: [String], dryRun: Bool) {
            self.name = name
            self.path = path
            self.command = command
            self.arguments = arguments
            self.dryRun = dryRun
        }
    }

    public struct Output: Sendable, Equatable {
        /// The users entry, as YAML (what `--dry-run` prints).
        public var entry: String
        /// Whether an entry of that name was there and is replaced.
        public var replaced: Bool
        public var written: Bool
    }

    let random: any RandomSource
    /// Whose time the wait for kubectl's lock takes (Sources/AuthCore/Files/KubectlLock.swift).
    let clock: any Clock

    public init(random: any RandomSource, clock: any Clock) {
        self.random = random
        self.clock = clock
    }

    /// The `users[]` item.
    public static func entry(_ input: Input) -> KubeconfigYAML {
        .mapping([
            ("name", .string(input.name)),
            (
                "user",
                .mapping([
                    (
                        "exec",
                        .mapping([
                            ("apiVersion", .string("client.authentication.k8s.io/v1")),
                            ("args", .sequence(input.arguments.map(KubeconfigYAML.string))),
                            ("command", .string(input.command)),
                            ("env", .plain("null")),
                            ("interactiveMode", .string("IfAvailable")),
                            ("provideClusterInfo", .plain("false")),
                        ])
                    )
                ])
            ),
        ])
    }

    public func run(_ input: Input) async throws -> Output {
        let entry = Self.entry(input)
        let entryText = KubeconfigYAML.sequence([entry]).emitted()
        guard (1...253).contains(input.name.utf8.count), !input.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw AuthError.invalidArgument("the kubeconfig user name must be 1 to 253 printable characters")
        }
        if input.dryRun {
            let existing = try? read(input.path)
            return Output(entry: entryText, replaced: existing.map { Self.index(of: input.name, in: $0) != nil } ?? false, written: false)
        }
        let lock = try await KubectlLock.acquire(for: input.path, clock: clock)
        defer { lock.release() }
        var document = try read(input.path) ?? .mapping([("apiVersion", .plain("v1")), ("kind", .plain("Config"))])
        guard case .mapping(var pairs) = document else {
            throw AuthError.invalidArgument("the kubeconfig \(input.path) is not a mapping at its top: authctl does not change it")
        }
        var users: [KubeconfigYAML] = []
        var usersIndex = pairs.firstIndex { $0.key == "users" }
        if let index = usersIndex {
            switch pairs[index].value {
            case .sequence(let items): users = items
            case .plain("null"): users = []
            default:
                throw AuthError.invalidArgument("users in the kubeconfig \(input.path) is not a list: authctl does not change it")
            }
        }
        let replaced: Bool
        if let existing = Self.index(of: input.name, in: document) {
            users[existing] = entry
            replaced = true
        } else {
            users.append(entry)
            replaced = false
        }
        if usersIndex == nil {
            pairs.append(("users", .sequence([])))
            usersIndex = pairs.count - 1
        }
        if let usersIndex { pairs[usersIndex].value = .sequence(users) }
        document = .mapping(pairs)
        try SafeFile.writeAtomically(Data(document.emitted().utf8), to: input.path, what: "the kubeconfig", random: random)
        return Output(entry: entryText, replaced: replaced, written: true)
    }

    static func index(of name: String, in document: KubeconfigYAML) -> Int? {
        guard case .sequence(let users)? = document["users"] else { return nil }
        return users.firstIndex { $0["name"]?.text == name }
    }

    /// The kubeconfig, read as the user's own file (bounded: 16 MiB); nil when it does not exist.
    func read(_ path: String) throws -> KubeconfigYAML? {
        guard
            let data = try SafeFile.read(path, what: "the kubeconfig", code: .keystoreError, directory: .strict, limit: 16 << 20)
        else { return nil }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw AuthError.invalidArgument("the kubeconfig \(path) is not UTF-8 text: authctl does not change it")
        }
        if text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).hasPrefix("{") {
            throw AuthError.invalidArgument(
                "the kubeconfig \(path) is JSON, which authctl does not rewrite: add the entry that \(command: .kubeconfigSetCredentials, "NAME", .input(.dryRun, nil)) prints by hand"
            )
        }
        do {
            return try KubeconfigYAML.parse(text)
        } catch {
            throw AuthError.invalidArgument(
                "the kubeconfig \(path), line \(error.line), uses \(error.reason), which authctl does not read (it reads the YAML kubectl writes), so it does not change the file. Add the entry that \(command: .kubeconfigSetCredentials, "NAME", .input(.dryRun, nil)) prints by hand"
            )
        }
    }
}
