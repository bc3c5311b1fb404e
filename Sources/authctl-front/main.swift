import FrontLibc

// authctl's front (issue 24, bench/README.md): the small static-PIE program installed as
// `bin/authctl`. It answers the commonest `authctl token` itself — a valid cached access token
// of the current user, read from a plaintext keystore or one sealed with a key file, or its
// ID token as kubectl's
// ExecCredential — and for everything else executes the
// full program (`<bindir>/../lib/authctl/authctl`) with the very same arguments and
// environment, having printed and read nothing. Whenever it is not sure, it hands over: the
// full program then answers as it always does, with its own messages and exit status.
// docs/front.md describes it; Tests/Front/run-front-test.sh holds it to the full program.

/// What `authctl token …` asked, when the front answers it.
struct TokenRequest {
    var keystore: String?
    var config: String?
    var minimumTTL = 60
    var provider: String?
    /// `--format`: `raw`, `header` or `kubectl-exec` (the others are the full program's).
    var format = Format.raw
    /// `--id-token`: the ID token instead of the access token.
    var idToken = false

    enum Format { case raw, header, kubectlExec }

    /// `TokenInvocation.printsIDToken` (without `--access-token` or `--scope`, which the front
    /// does not take): asked, or kubectl's.
    var printsIDToken: Bool { idToken || format == .kubectlExec }
}

@_cdecl("main")
func frontMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    if let token = answer(argc, argv) {
        if writeAll(token) { return 0 }
    }
    return handOver(argv)
}

/// The bytes `authctl token` prints for this command line, or nil when the front does not answer it.
func answer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [UInt8]? {
    var arguments: [String] = []
    var index = 1
    while index < Int(argc) {
        guard let pointer = argv[index], let argument = plainText(pointer) else { return nil }
        arguments.append(argument)
        index += 1
    }
    guard let request = parse(arguments) else { return nil }
    // What else chooses the user or seals the keystore: the full program's to read.
    for name in ["AUTHCTL_USER", "AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEYRING"] {
        if let value = getenv(name), value[0] != 0 { return nil }
    }
    // A key file (a keystore sealed with one, docs/keystore.md): empty is unset, as in the core.
    var keyFile: String?
    if let value = getenv("AUTHCTL_KEYSTORE_KEY_FILE"), value[0] != 0 {
        guard let text = plainText(value) else { return nil }
        keyFile = text
    }
    guard
        let keystorePath = resolvedPath(
            request.keystore, variable: "AUTHCTL_KEYSTORE", xdg: "XDG_DATA_HOME", fallback: ".local/share", file: "keystore.json"),
        let configPath = resolvedPath(
            request.config, variable: "AUTHCTL_CONFIG", xdg: "XDG_CONFIG_HOME", fallback: ".config", file: "config.json"),
        !configMayHoldRules(configPath)
    else { return nil }
    return cachedToken(request, keystorePath: keystorePath, keyFile: keyFile)
}

/// The arguments of `authctl token` the front answers: `--keystore P`, `--config P`,
/// `--min-ttl N`, `--format raw`, `header` or `kubectl-exec`, `--id-token`, a provider (each option also as `--name=value`); nil for
/// anything else. It takes a subset of what `TokenInvocation.parseFast` takes, with its rules.
func parse(_ arguments: [String]) -> TokenRequest? {
    guard arguments.first == "token" else { return nil }
    var request = TokenRequest()
    var index = 1
    while index < arguments.count {
        let argument = arguments[index]
        var name = argument
        var inline: String?
        if argument.hasPrefix("--"), let equals = argument.utf8.firstIndex(of: UInt8(ascii: "=")) {
            name = String(decoding: argument.utf8[..<equals], as: UTF8.self)
            inline = String(decoding: argument.utf8[argument.utf8.index(after: equals)...], as: UTF8.self)
        }
        func value() -> String? {
            if let inline { return inline }
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            return arguments[index]
        }
        switch name {
        case "--keystore":
            guard let path = value(), isPath(path) else { return nil }
            request.keystore = path
        case "--config":
            guard let path = value(), isPath(path) else { return nil }
            request.config = path
        case "--min-ttl":
            guard let seconds = value().flatMap(seconds) else { return nil }
            request.minimumTTL = seconds
        case "--format":
            switch value() {
            case "raw": request.format = .raw
            case "header": request.format = .header
            case "kubectl-exec": request.format = .kubectlExec
            default: return nil
            }
        case "--id-token":
            guard inline == nil else { return nil }
            request.idToken = true
        default:
            guard inline == nil, !argument.hasPrefix("-"), request.provider == nil, let provider = providerID(argument) else { return nil }
            request.provider = provider
        }
        index += 1
    }
    return request
}

/// A path the core takes as it is: printable ASCII, not only spaces (non-ASCII, control
/// characters and Unicode spaces: the full program's).
func isPath(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && text.utf8.contains { $0 != 0x20 }
}

/// `--min-ttl`'s value: digits only, 0…86400.
func seconds(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    var value = 0
    for digit in text.utf8 { value = value * 10 + Int(digit - 0x30) }
    return value <= 86_400 ? value : nil
}

/// A provider id as `ProviderID(parsing:)` takes it, in the form identities are stored under.
func providerID(_ text: String) -> String? {
    switch text {
    case "microsoft", "microsoft.com": return "microsoft.com"
    case "apple", "apple.com": return "apple.com"
    default:
        guard text.hasPrefix("oidc.") else { return nil }
        let name = text.utf8.dropFirst(5)
        guard !name.isEmpty, name.count <= 64,
            name.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 })
        else { return nil }
        return text
    }
}

/// A C string of printable ASCII as a String; nil for anything else (the full program's).
func plainText(_ pointer: UnsafePointer<CChar>) -> String? {
    let length = strlen(pointer)
    let bytes = UnsafeRawPointer(pointer).bindMemory(to: UInt8.self, capacity: length)
    let buffer = UnsafeBufferPointer(start: bytes, count: length)
    guard buffer.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: buffer, as: UTF8.self)
}

/// `Wiring.keystorePath` and `configPath`: the option, else the variable, else the XDG place;
/// nil when the front does not take what it finds (a value that is not printable ASCII, no
/// usable HOME): then the full program decides.
func resolvedPath(_ option: String?, variable: String, xdg: String, fallback: String, file: String) -> String? {
    if let option { return option }
    if let value = getenv(variable) {
        guard let text = plainText(value), isPath(text) else { return nil }
        return text
    }
    return xdgPath(xdg, fallback, file)
}

/// `Wiring.xdg`: `$VARIABLE` when absolute, else `$HOME/fallback`, then `authctl/file`; nil
/// without a usable HOME (the core then asks the password database: the full program's).
func xdgPath(_ variable: String, _ fallback: String, _ file: String) -> String? {
    if let value = getenv(variable), let text = plainText(value), text.hasPrefix("/") { return text + "/authctl/" + file }
    if let value = getenv(variable), plainText(value) == nil { return nil }
    guard let home = getenv("HOME"), let text = plainText(home), !text.isEmpty else { return nil }
    return text + "/" + fallback + "/authctl/" + file
}
