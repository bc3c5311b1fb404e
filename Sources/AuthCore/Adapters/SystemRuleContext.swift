#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The facts rules look at, from this process (docs/identities.md): its working directory
/// (symbolic links resolved), the remotes of the git repository it is in (read from the
/// repository's `config`, as git would find it: `GIT_DIR`, else `.git` in the directory or
/// the nearest parent, a worktree's `.git` file and `commondir` followed), kubectl's current
/// context (the first file of `KUBECONFIG` that sets one, else `~/.kube/config`) and the
/// environment. No program is run; every file is read bounded (1 MiB), and one that cannot
/// be read gives no facts. A git directory that neither the user nor root owns (another
/// user's `.git` in a shared parent such as /tmp) gives no remotes, as git's
/// `safe.directory` refuses it (`GitDirectoryOwner`).
public struct SystemRuleContext: RuleContext {
    let environment: @Sendable (String) -> String?
    /// The URL git asks a credential for: then it is the one remote (`git-credential`).
    public var askedRemote: String?

    public init(askedRemote: String? = nil, environment: @escaping @Sendable (String) -> String?) {
        self.askedRemote = askedRemote
        self.environment = environment
    }

    public func variable(_ name: String) -> String? { environment(name) }

    public func homeDirectory() -> String? {
        if let home = environment("HOME"), home.hasPrefix("/") { return home }
        return Path.homeDirectory()
    }

    public func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// getcwd(3): on Linux the kernel's path of the directory, with every symbolic link
    /// resolved already (elsewhere it is resolved here).
    public func workingDirectory() -> String? {
        // On the stack: nothing to allocate, zero and free on the token hot path.
        let directory: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { pointer in
            guard let base = pointer.baseAddress, getcwd(base, pointer.count) != nil else { return nil }
            return String(cString: base)
        }
        #if os(Linux)
            return directory
        #else
            return directory.map { realPath($0) ?? $0 }
        #endif
    }

    public func gitRemotes() -> [String] {
        if let askedRemote { return [askedRemote] }
        return Self.gitRemotes(configPath: gitConfigPath())
    }

    static func gitRemotes(configPath: String?) -> [String] {
        guard let configPath, let text = readSmall(configPath) else { return [] }
        return remoteURLs(inGitConfig: text)
    }

    public func kubeContext() -> String? {
        let files: [String]
        if let list = environment("KUBECONFIG"), !list.isEmpty {
            files = list.split(separator: ":").map(String.init)
        } else {
            guard let home = homeDirectory() else { return nil }
            files = [home + "/.kube/config"]
        }
        for file in files {
            if let text = Self.readSmall(file), let context = Self.currentContext(inKubeconfig: text) { return context }
        }
        return nil
    }

    /// The repository's `config`: `$GIT_DIR/config`, else that of the `.git` nearest the working directory.
    func gitConfigPath() -> String? {
        Self.gitConfigPath(from: workingDirectory(), gitDirectory: environment("GIT_DIR"))
    }

    /// nil too when the git directory found, a `gitdir:` file, or the target of `gitdir:` or
    /// `commondir` belongs to neither the user nor root (`owner`): the search stops there, as
    /// git's does, rather than going on to a parent.
    static func gitConfigPath(from start: String?, gitDirectory: String?, owner: GitDirectoryOwner = .system) -> String? {
        if let gitDirectory, !gitDirectory.isEmpty {
            let absolute = gitDirectory.hasPrefix("/") ? gitDirectory : (start ?? "") + "/" + gitDirectory
            guard owner.trusts(absolute) else { return nil }
            return commonDirectory(of: absolute, owner: owner).map { $0 + "/config" }
        }
        guard var directory = start else { return nil }
        for _ in 0..<256 {
            let candidate = directory == "/" ? "/.git" : directory + "/.git"
            var info = stat()
            if lstat(candidate, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    guard owner.trusts(candidate) else { return nil }
                    return commonDirectory(of: candidate, owner: owner).map { $0 + "/config" }
                }
                if (info.st_mode & S_IFMT) == S_IFREG, let text = readSmall(candidate), text.hasPrefix("gitdir:") {
                    // A worktree or submodule: `gitdir: PATH`, relative to the directory holding `.git`.
                    let target = text.dropFirst(7).trimming(.whitespacesAndNewlines)
                    let gitDirectory = target.hasPrefix("/") ? target : directory + "/" + target
                    guard owner.trusts(candidate), owner.trusts(gitDirectory) else { return nil }
                    return commonDirectory(of: gitDirectory, owner: owner).map { $0 + "/config" }
                }
            }
            if directory == "/" { return nil }
            directory = Path.parent(of: directory)
        }
        return nil
    }

    /// A worktree's git directory names the repository's own in `commondir`; nil when that
    /// one belongs to another user.
    static func commonDirectory(of gitDirectory: String, owner: GitDirectoryOwner) -> String? {
        guard let text = readSmall(gitDirectory + "/commondir") else { return gitDirectory }
        let common = text.trimming(.whitespacesAndNewlines)
        guard !common.isEmpty else { return gitDirectory }
        let directory = common.hasPrefix("/") ? common : gitDirectory + "/" + common
        return owner.trusts(directory) ? directory : nil
    }

    /// Every `url` of every `[remote "NAME"]` section of a git config file (git-config(1)'s
    /// syntax: sections and keys without case, `#` and `;` comments, double-quoted values).
    /// `include`s and `insteadOf` are not followed. Read on the bytes, line by line (the token
    /// hot path reads it when a rule names a remote).
    public static func remoteURLs(inGitConfig text: String) -> [String] {
        var urls: [String] = []
        var inRemote = false
        // Line by line, without an array of lines (whose element type the runtime would make
        // metadata for on the token hot path).
        let all = text.utf8
        var start = all.startIndex
        while start < all.endIndex {
            let end = all[start...].firstIndex(of: UInt8(ascii: "\n")) ?? all.endIndex
            let line = all[start..<end]
            start = end < all.endIndex ? all.index(after: end) : end
            guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let rest = line[first...]
            if rest.first == UInt8(ascii: "[") {
                let name = rest.dropFirst().prefix {
                    $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: ".")
                }
                inRemote = name.count == 6 && zip(name, "remote".utf8).allSatisfy { $0 | 0x20 == $1 }
                continue
            }
            guard inRemote, rest.count > 3, zip(rest.prefix(3), "url".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
            let afterKey = rest.dropFirst(3).drop { $0 == 0x20 || $0 == 0x09 }
            guard afterKey.first == UInt8(ascii: "=") else { continue }
            if let value = gitValue(Substring(afterKey.dropFirst())), !value.isEmpty { urls.append(value) }
            if urls.count >= 64 { break }
        }
        return urls
    }

    /// A git config value: comments cut, double quotes removed, `\"` and `\\` kept as their character.
    static func gitValue(_ raw: Substring) -> String? {
        var value = ""
        var quoted = false
        var escaped = false
        for character in raw {
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == "#" || character == ";" {
                break
            } else {
                value.append(character)
            }
        }
        let trimmed = value.trimming(.whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The top-level `current-context` of a kubeconfig, YAML (`current-context: NAME`) or JSON
    /// (`"current-context": "NAME"`); nil when it is absent or empty.
    public static func currentContext(inKubeconfig text: String) -> String? {
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = rawLine.trimming(.whitespaces)
            let isJSON = trimmed.hasPrefix("\"current-context\"")
            guard isJSON || rawLine.hasPrefix("current-context:") else { continue }
            var rest = String(trimmed.dropFirst(isJSON ? 17 : 16)).trimming(.whitespaces)
            if isJSON {
                guard rest.hasPrefix(":") else { continue }
                rest = String(rest.dropFirst()).trimming(.whitespaces)
                if rest.hasSuffix(",") { rest = String(rest.dropLast()).trimming(.whitespaces) }
            }
            var value = Substring(rest)
            if let first = value.first, first == "\"" || first == "'" {
                let inner = value.dropFirst()
                guard let end = inner.firstIndex(of: first) else { return nil }
                value = inner[..<end]
            } else if let hash = value.indices.first(where: {
                value[$0] == "#" && $0 > value.startIndex && value[value.index(before: $0)] == " "
            }) {
                value = value[..<hash]
            }
            let context = value.trimming(.whitespaces)
            return context.isEmpty || context == "null" ? nil : context
        }
        return nil
    }

    /// A regular file's text, at most 1 MiB; nil for anything else.
    static func readSmall(_ path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= off_t(limit) else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var length = 0
        while length < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(fd, base + length, buffer.count - length)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            length += count
        }
        guard length <= limit else { return nil }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[..<length]), as: UTF8.self) }
    }
}

/// Who may own a git directory whose remotes choose an identity: the user, or root — git's
/// `safe.directory` rule (git ≥ 2.35.2, CVE-2022-24765). Another local user could otherwise
/// put a `.git` in a shared parent (/tmp) and make a remote rule choose a powerful identity.
public struct GitDirectoryOwner: Sendable {
    /// The user the command runs as.
    let user: UInt32
    /// The owner of a path, nil when it cannot be looked at (then it is not trusted).
    let lookup: @Sendable (String) -> UInt32?

    public init(user: UInt32, lookup: @escaping @Sendable (String) -> UInt32?) {
        self.user = user
        self.lookup = lookup
    }

    func trusts(_ path: String) -> Bool {
        guard let owner = lookup(path) else { return false }
        return owner == user || owner == 0
    }

    /// This process's user; a path's owner as lstat(2) gives it, and when it is a symbolic
    /// link, the owner of what it points to as well (both must be trusted).
    public static var system: GitDirectoryOwner {
        GitDirectoryOwner(user: UInt32(getuid())) { path in
            var link = stat()
            guard lstat(path, &link) == 0 else { return nil }
            guard (link.st_mode & S_IFMT) == S_IFLNK else { return UInt32(link.st_uid) }
            var target = stat()
            guard stat(path, &target) == 0 else { return nil }
            let user = UInt32(getuid())
            let owners = [UInt32(link.st_uid), UInt32(target.st_uid)]
            // Both trusted: say so with the user; else the first that is not.
            return owners.first { $0 != user && $0 != 0 } ?? user
        }
    }
}
