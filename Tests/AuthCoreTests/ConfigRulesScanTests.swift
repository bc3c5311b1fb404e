import Foundation
import Testing

@testable import AuthCore

@Suite("The token hot path's reading of config.json's rules")
struct ConfigRulesScanTests {
    static let rules = [
        IdentityRule(name: "work", user: "ada@contoso.com", provider: "microsoft.com", directory: "~/work/"),
        IdentityRule(user: "uid_0123456789abcdefghij", remote: "https://dev.azure.com/contoso/**", kubeContext: "aks-*", env: "TEAM=x"),
    ]

    @Test("what authctl writes is read to the same rules as JSONDecoder reads them")
    func agreesWithTheDecoder() async throws {
        let storage = InMemoryConfigStorageForScan()
        let store = ConfigStore(storage: storage)
        try await store.update { file in
            file.providers["oidc.a"] = try? JSONDecoder().decode(
                ProviderConfig.self, from: Data(#"{"id":"oidc.a","clientId":"c","issuer":"https://a.example"}"#.utf8))
            file.rules = Self.rules
        }
        let data = try #require(storage.data)
        #expect(ConfigRulesScan.rules(in: data) == .rules(Self.rules))
        #expect(try store.rules() == Self.rules)
    }

    @Test(
        "a file without rules needs no scan; anything unusual is left to the full reading",
        arguments: [
            (#"{"version": 1, "providers": {}}"#, ConfigRulesScan.Result.none),
            (#"{"version": 1, "providers": {"oidc.rules": {"id": "oidc.rules"}}}"#, .none),
            (#"{"rules": [], "version": 1}"#, .rules([])),
            (#"{"rules": [{"user": "a@b", "env": "A\u0042"}], "version": 1}"#, .unsure),
            (#"{"rules": [{"user": "a@b", "env": "A", "extra": "x"}]}"#, .unsure),
            (#"{"rules": [{"user": "a@b", "env": 1}]}"#, .unsure),
            (#"{"rules": [{"user": "a@b"}]}"#, .unsure),
            (#"{"rules": [{"user": "a@b", "env": "A"}], "rules": []}"#, .unsure),
            // The same key, spelled with an escape: JSON's "rules" all the same (the review's finding).
            (#"{"\u0072ules": [{"user": "a@b", "env": "A"}]}"#, .unsure),
            (#"{"ru\u006ces": []}"#, .unsure),
            (#"{"rules": [{"user": "a@b", "env": "A"}]"#, .unsure),
            (
                #"{"x": [1, -2.5e3, true, null, {"y": "\"rules\""}], "rules": [{"user": "a@b", "env": "A"}]}"#,
                .rules([IdentityRule(user: "a@b", env: "A")])
            ),
        ])
    func oddFiles(text: String, result: ConfigRulesScan.Result) {
        #expect(ConfigRulesScan.rules(in: Data(text.utf8)) == result, "\(text)")
    }

    @Test("firstMatch gives the winner rules(in:) and IdentityRules.winner give, and is unsure where rules(in:) is")
    func firstMatchAgrees() {
        let text = #"{"rules": [{"user": "a@b", "env": "A"}, {"name": "two", "user": "c@d", "env": "B"}, {"user": "e@f", "env": "B"}]}"#
        let data = Data(text.utf8)
        let context = FixedRuleContext(variables: ["B": "1"])
        guard case .rules(let rules) = ConfigRulesScan.rules(in: data) else {
            Issue.record("not read")
            return
        }
        let winner = IdentityRules.winner(rules, in: context)
        #expect(ConfigRulesScan.firstMatch(in: data, where: IdentityRules.Chooser(context).holds) == .rule(rules[1], index: 2))
        #expect(winner?.index == 2)
        #expect(ConfigRulesScan.firstMatch(in: data, where: { _ in false }) == .none)
        // A broken rule after the winner still makes it unsure, as the full reading fails.
        let broken = Data(#"{"rules": [{"user": "a@b", "env": "A"}, {"user": "c@d", "directory": "relative"}]}"#.utf8)
        #expect(ConfigRulesScan.firstMatch(in: broken, where: { _ in true }) == .unsure)
        let twice = Data(#"{"rules": [{"name": "n", "user": "a@b", "env": "A"}, {"name": "n", "user": "c@d", "env": "B"}]}"#.utf8)
        #expect(ConfigRulesScan.firstMatch(in: twice, where: { _ in true }) == .unsure)
    }

    @Test("a broken rule fails the configuration's load, naming the file, the rule and the field")
    func validatedOnLoad() throws {
        let storage = InMemoryConfigStorageForScan()
        storage.data = Data(
            #"{"version": 1, "providers": {}, "rules": [{"user": "a@b", "env": "A"}, {"user": "a@b", "directory": "relative"}]}"#.utf8)
        do {
            _ = try ConfigStore(storage: storage).load()
            Issue.record("loaded")
        } catch let error as AuthError {
            #expect(error.code == .providerNotConfigured)
            #expect(error.message.description.contains("rule 2, field \"directory\""), "\(error.message)")
        }
    }
}

extension ConfigRulesScanTests {
    @Test(
        "a file that lacks a member or holds one of the wrong type names it (a rule by its place), never an empty name",
        arguments: [
            (#"{"rules": [{"user": "a@b", "env": "A"}]}"#, #""version" is missing"#),
            (#"{"version": 1, "rules": []}"#, #""providers" is missing"#),
            (#"{"version": 1, "providers": {}, "rules": [{"user": 5, "env": "A"}]}"#, #"rule 1, field "user" has the wrong type"#),
            (#"{"version": 1, "providers": {}, "rules": {"user": "a@b"}}"#, #""rules" has the wrong type"#),
            (#"{"version": 1, "providers": {"oidc.a": {"id": 1}}}"#, #"field "id""#),
        ])
    func namesTheMember(text: String, named: String) throws {
        let storage = InMemoryConfigStorageForScan()
        storage.data = Data(text.utf8)
        do {
            _ = try ConfigStore(storage: storage).load()
            Issue.record("loaded: \(text)")
        } catch let error as AuthError {
            #expect(error.message.description.contains(named) && !error.message.description.contains(":  "), "\(error.message)")
        }
    }
}

final class InMemoryConfigStorageForScan: ConfigStorage, @unchecked Sendable {
    var data: Data?
    var path: String { "/config.json" }
    func read() throws -> Data? { data }
    func update(_ change: (Data?) throws -> Data) async throws { data = try change(data) }
}

@Suite("The hot path's peek at config.json for rules")
struct ConfigRulesPeekTests {
    @Test("a missing file or one without the bytes \"rules\" holds none, also through a link; one with them may")
    func peek() throws {
        let directory = NSTemporaryDirectory() + "authctl-peek-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/config.json"
        let storage = FileConfigStorage(path: path, random: SystemRandomSource())
        #expect(!storage.mayHoldRules())
        try Data(#"{"version": 1, "providers": {}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(!storage.mayHoldRules())
        try Data(#"{"version": 1, "rules": []}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(storage.mayHoldRules())
        let link = directory + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let linked = FileConfigStorage(path: link, random: SystemRandomSource())
        #expect(linked.mayHoldRules(), "then the full read refuses the link")
        #expect(throws: AuthError.self) { try linked.read() }
        try Data(#"{"version": 1, "providers": {}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(!linked.mayHoldRules(), "no rules through the link: as before rules existed")
    }
}
