import Foundation
import Testing

@testable import AuthCore

/// Facts given by the test: where a command "runs".
struct FixedRuleContext: RuleContext {
    var directory: String? = "/home/ada/work/contoso/app"
    var links: [String: String] = [:]
    var home: String? = "/home/ada"
    var remotes: [String] = []
    var context: String?
    var variables: [String: String] = [:]
    /// Which facts were asked, to show that only what a rule needs is looked at.
    let asked = Asked()

    final class Asked: @unchecked Sendable {
        var names: [String] = []
    }

    func workingDirectory() -> String? {
        asked.names.append("directory")
        return directory
    }
    func realPath(_ path: String) -> String? { links[path] ?? path }
    func homeDirectory() -> String? { home }
    func gitRemotes() -> [String] {
        asked.names.append("remotes")
        return remotes
    }
    func kubeContext() -> String? {
        asked.names.append("kubeContext")
        return context
    }
    func variable(_ name: String) -> String? { variables[name] }
}

@Suite("Rules choose the identity by where a command runs")
struct IdentityRulesTests {
    @Test(
        "wildcards: * stays within a segment, ** crosses them, a trailing /** also matches what is before it",
        arguments: [
            ("https://dev.azure.com/contoso/**", "https://dev.azure.com/contoso/app/_git/repo", true),
            ("https://dev.azure.com/contoso/**", "https://dev.azure.com/contoso", true),
            ("https://dev.azure.com/contoso/**", "https://dev.azure.com/contosox/app", false),
            ("https://dev.azure.com/*/app", "https://dev.azure.com/contoso/app", true),
            ("https://dev.azure.com/*/app", "https://dev.azure.com/a/b/app", false),
            ("prod-?", "prod-1", true), ("prod-?", "prod-12", false), ("*", "", true), ("a", "ab", false),
            (String(repeating: "*a", count: 40), String(repeating: "a", count: 2000) + "b", false),
        ])
    func globs(pattern: String, text: String, matches: Bool) {
        #expect(Glob.matches(pattern, text) == matches, "\(pattern) ~ \(text)")
    }

    @Test(
        "remote URLs are compared without user, case of scheme and host, trailing slash or .git; scp-like is ssh",
        arguments: [
            ("https://ada@Dev.Azure.com/contoso/app/_git/repo.git/", "https://dev.azure.com/contoso/app/_git/repo"),
            ("git@github.com:octo/app.git", "ssh://github.com/octo/app"),
            ("ssh://git@GitHub.com/octo/app", "ssh://github.com/octo/app"), ("/srv/repo.git", "/srv/repo.git"),
        ])
    func normalizedRemotes(url: String, normalized: String) {
        #expect(RemoteURL.normalized(url) == normalized)
    }

    @Test("a directory holds in it and under it, with ~ and with its symbolic links resolved, not in a sibling of the same prefix")
    func directories() {
        let context = FixedRuleContext(links: ["/home/ada/w": "/data/w"])
        #expect(IdentityRules.directoryMatches("~/work", "/home/ada/work", context: context))
        #expect(IdentityRules.directoryMatches("~/work/", "/home/ada/work/contoso", context: context))
        #expect(!IdentityRules.directoryMatches("~/work", "/home/ada/workshop", context: context))
        #expect(IdentityRules.directoryMatches("~/w", "/data/w/app", context: context), "~/w is a link to /data/w")
        #expect(IdentityRules.directoryMatches("/home/*/work", "/home/ada/work/x", context: context))
        #expect(IdentityRules.directoryMatches("/", "/anything", context: context))
    }

    @Test("the first rule whose conditions all hold wins; the conditions a rule does not need are never looked at")
    func firstMatchWins() {
        let context = FixedRuleContext(remotes: ["https://dev.azure.com/contoso/app/_git/app"], variables: ["CI": "true"])
        let rules = [
            IdentityRule(name: "ci", user: "bot@example.com", env: "CI=false"),
            IdentityRule(
                name: "work", user: "ada@contoso.com", provider: "microsoft.com", directory: "~/work/",
                remote: "https://dev.azure.com/contoso/**"),
            IdentityRule(name: "any-ci", user: "bot@example.com", env: "CI"),
        ]
        let winner = IdentityRules.winner(rules, in: context)
        #expect(winner?.index == 2 && winner?.rule.name == "work")
        #expect(context.asked.names == ["directory", "remotes"], "\(context.asked.names)")

        let onlyEnvironment = FixedRuleContext(variables: ["CI": "1"])
        #expect(IdentityRules.winner([rules[2]], in: onlyEnvironment)?.index == 1)
        #expect(onlyEnvironment.asked.names.isEmpty, "a rule on a variable reads no file")

        let explained = IdentityRules.explain(rules, in: context)
        #expect(explained.map(\.matches) == [false, true, true])
        #expect(explained[0].conditions == [.init(condition: .env, pattern: "CI=false", found: ["(set)"], holds: false)])
        #expect(explained[1].conditions.map(\.holds) == [true, true])
        #expect(IdentityRules.winner(rules, in: FixedRuleContext(directory: "/tmp")) == nil)
        // A remote URL's user name and password (a token, often) are never part of what is shown.
        let withToken = FixedRuleContext(remotes: ["https://x-access-token:ghp_secret@github.com/octo/app.git"])
        let shown = IdentityRules.explain([IdentityRule(user: "a@b", remote: "https://github.com/octo/**")], in: withToken)
        #expect(shown[0].matches && shown[0].conditions[0].found == ["https://github.com/octo/app"])
    }

    @Test("a kube context rule matches kubectl's current context; none set: it does not hold")
    func kubeContexts() {
        let rule = IdentityRule(user: "ops@example.com", kubeContext: "prod-*")
        #expect(IdentityRules.winner([rule], in: FixedRuleContext(context: "prod-eu")) != nil)
        #expect(IdentityRules.winner([rule], in: FixedRuleContext(context: "dev")) == nil)
        #expect(IdentityRules.winner([rule], in: FixedRuleContext(context: nil)) == nil)
    }

    @Test(
        "a rule is held to the rules of rules add",
        arguments: [
            (IdentityRule(user: "ada@example.com"), "directory"), (IdentityRule(directory: "/x"), "user"),
            (IdentityRule(user: "not a user", directory: "/x"), "user"), (IdentityRule(provider: "google", directory: "/x"), "provider"),
            (IdentityRule(user: "a@b", directory: "work"), "directory"), (IdentityRule(user: "a@b", env: "1X"), "env"),
            (IdentityRule(user: "a@b", env: "A B"), "env"), (IdentityRule(name: "12", user: "a@b", env: "A"), "name"),
            (IdentityRule(user: "a@b", remote: "https://x/\u{1B}[31m"), "remote"),
        ])
    func checks(rule: IdentityRule, field: String) {
        #expect(throws: IdentityRule.FieldError.self) { try rule.check() }
        do {
            try rule.check()
        } catch {
            #expect(error.field == field)
        }
    }

    @Test("two rules of one name are refused, naming the second")
    func uniqueNames() {
        let rules = [IdentityRule(name: "w", user: "a@b", env: "A"), IdentityRule(name: "w", user: "c@d", env: "B")]
        do {
            try IdentityRule.check(rules)
            Issue.record("accepted")
        } catch {
            #expect(error.index == 2 && error.field == "name")
        }
        #expect((try? IdentityRule.check([rules[0]])) != nil)
    }

    @Test("git config: every remote's url, quoted or not, comments cut, other sections ignored")
    func gitConfig() {
        let text = """
            [core]
            \turl = https://not-a-remote.example
            [remote "origin"]
            \turl = https://dev.azure.com/contoso/app/_git/app ; the work remote
            \tfetch = +refs/heads/*:refs/remotes/origin/*
            [Remote "fork"]\r
            \tURL = "git@github.com:ada/app.git" # mine\r
            [remotex]
            \turl = https://not-a-remote-either.example
            [remote "third"]
            \turlx = https://not-a-url.example
            [branch "main"]
            \tremote = origin

            """
        #expect(
            SystemRuleContext.remoteURLs(inGitConfig: text) == ["https://dev.azure.com/contoso/app/_git/app", "git@github.com:ada/app.git"])
    }

    @Test("kubeconfig: the top-level current-context, YAML or JSON, quoted or not; none or empty is none")
    func currentContext() {
        #expect(SystemRuleContext.currentContext(inKubeconfig: "apiVersion: v1\ncurrent-context: prod-eu # here\n") == "prod-eu")
        #expect(SystemRuleContext.currentContext(inKubeconfig: "current-context: 'a b'\n") == "a b")
        #expect(SystemRuleContext.currentContext(inKubeconfig: "{\n  \"current-context\": \"dev\",\n}") == "dev")
        #expect(SystemRuleContext.currentContext(inKubeconfig: "current-context: \"\"\n") == nil)
        #expect(SystemRuleContext.currentContext(inKubeconfig: "users:\n  current-context: nested\n") == nil)
    }

    @Test("the system context finds a repository's remotes from a directory deep inside it, and through a worktree's .git file")
    func systemContextFindsTheRepository() throws {
        let root = NSTemporaryDirectory() + "authctl-rules-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/repo/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/repo/src/deep", withIntermediateDirectories: true)
        try Data("[remote \"origin\"]\n\turl = https://example.com/a.git\n".utf8).write(
            to: URL(fileURLWithPath: root + "/repo/.git/config"))
        // A worktree: `.git` is a file naming its git directory, whose commondir is the repository's.
        try FileManager.default.createDirectory(atPath: root + "/repo/.git/worktrees/wt", withIntermediateDirectories: true)
        try Data("../..\n".utf8).write(to: URL(fileURLWithPath: root + "/repo/.git/worktrees/wt/commondir"))
        try FileManager.default.createDirectory(atPath: root + "/wt", withIntermediateDirectories: true)
        try Data("gitdir: \(root)/repo/.git/worktrees/wt\n".utf8).write(to: URL(fileURLWithPath: root + "/wt/.git"))
        for directory in [root + "/repo/src/deep", root + "/wt"] {
            let config = SystemRuleContext.gitConfigPath(from: directory, gitDirectory: nil)
            #expect(SystemRuleContext.gitRemotes(configPath: config) == ["https://example.com/a.git"], "\(directory)")
        }
        #expect(SystemRuleContext.gitRemotes(configPath: SystemRuleContext.gitConfigPath(from: root, gitDirectory: nil)).isEmpty)
        #expect(SystemRuleContext(askedRemote: "https://h/p") { _ in nil }.gitRemotes() == ["https://h/p"])
    }
}

/// Issue 35: a `.git` another local user owns (in a shared parent such as /tmp) chooses
/// nothing, as git's `safe.directory` refuses it: only the user's own, or root's, count.
@Suite("A git directory another user owns gives no remotes")
struct GitOwnershipTests {
    /// root/repo/.git with a remote; root/wt/.git a worktree file whose git directory's
    /// commondir is root/repo/.git.
    static func repository() throws -> String {
        let root = NSTemporaryDirectory() + "authctl-owner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/repo/.git/worktrees/wt", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/repo/src", withIntermediateDirectories: true)
        try Data("[remote \"origin\"]\n\turl = https://prod.example.com/app.git\n".utf8).write(
            to: URL(fileURLWithPath: root + "/repo/.git/config"))
        try Data("../..\n".utf8).write(to: URL(fileURLWithPath: root + "/repo/.git/worktrees/wt/commondir"))
        try FileManager.default.createDirectory(atPath: root + "/wt", withIntermediateDirectories: true)
        try Data("gitdir: \(root)/repo/.git/worktrees/wt\n".utf8).write(to: URL(fileURLWithPath: root + "/wt/.git"))
        return root
    }

    @Test(
        "with a fake owner lookup: a .git, a gitdir target or a commondir target of another user gives no config; root's and one's own do")
    func fakeOwners() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func config(from directory: String, others: [String], gitDirectory: String? = nil) -> String? {
            SystemRuleContext.gitConfigPath(
                from: directory, gitDirectory: gitDirectory,
                owner: GitDirectoryOwner(user: 1000) { path in others.contains(path) ? 12345 : (path.hasSuffix("/wt") ? 0 : 1000) })
        }
        #expect(config(from: root + "/repo/src", others: []) == root + "/repo/.git/config")
        #expect(config(from: root + "/repo/src", others: [root + "/repo/.git"]) == nil, "another user's .git")
        #expect(config(from: root + "/wt", others: []) == root + "/repo/.git/worktrees/wt/../../config")
        #expect(config(from: root + "/wt", others: [root + "/wt/.git"]) == nil, "another user's .git file")
        #expect(config(from: root + "/wt", others: [root + "/repo/.git/worktrees/wt"]) == nil, "another user's gitdir target")
        #expect(config(from: root + "/wt", others: [root + "/repo/.git/worktrees/wt/../.."]) == nil, "another user's commondir target")
        #expect(config(from: "/", others: [root + "/repo/.git"], gitDirectory: root + "/repo/.git") == nil, "GIT_DIR of another user")
    }

    @Test("a real .git owned by uid 12345 in a shared parent: the remote rule no longer holds there")
    func realOwner() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let rule = IdentityRule(user: "ops@example.com", remote: "https://prod.example.com/**")
        func winner() -> Int? {
            let remotes = SystemRuleContext.gitRemotes(
                configPath: SystemRuleContext.gitConfigPath(from: root + "/repo/src", gitDirectory: nil))
            return IdentityRules.winner([rule], in: FixedRuleContext(directory: root + "/repo/src", remotes: remotes))?.0
        }
        #expect(winner() == 1, "one's own repository: the rule holds")
        // Tests run as root here; as another user, a root-owned .git is trusted too (git's rule).
        guard getuid() == 0 else { return }
        #expect(chown(root + "/repo/.git", 12345, 12345) == 0)
        #expect(winner() == nil, "another user's .git chooses nothing")
    }
}
