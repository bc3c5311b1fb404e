import Foundation
import Testing

@testable import AuthCore
@testable import AuthctlCommands

/// The token hot path's output bytes (`TokenOutputBytes`, issue 24) are exactly what the
/// general code writes: `Output.jsonDocument` for `--format kubectl-exec`, string interpolation
/// for the others; and a token or date they do not take is left to the general code.
@Suite("Token output bytes made without JSONEncoder")
struct TokenOutputBytesTests {
    /// What `printed` wrote for kubectl-exec before the fast bytes (and still writes when they give nil).
    static func general(token: String, expiresAt: Date?) -> Data {
        var status: [String: JSONValue] = ["token": .string(token)]
        if let expiresAt { status["expirationTimestamp"] = .string(Output.rfc3339(expiresAt)) }
        return Output.jsonDocument(
            .object([
                "apiVersion": .string("client.authentication.k8s.io/v1"), "kind": .string("ExecCredential"), "status": .object(status),
            ]))
    }

    static let tokens: [String] = {
        var generator = SystemRandomNumberGenerator()
        let printable = (0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
        var tokens = [
            "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "a/b+c=", "with space", "<>&'", "a\"b", "a\\b", "tab\tin", "é", "\u{7f}",
            "\u{202e}bidi", "line\nfeed", "", "😀", "{\"json\":1}",
        ]
        for length in [1, 2, 50, 1200] {
            for _ in 0..<20 { tokens.append(String((0..<length).map { _ in printable.randomElement(using: &generator) ?? "a" })) }
        }
        return tokens
    }()

    static let dates: [Date?] = {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date?] = [
            nil, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 4_102_444_799),
            Date(timeIntervalSince1970: 253_402_300_799), Date(timeIntervalSince1970: 1_790_000_000.5), Date(timeIntervalSince1970: -1),
            Date(timeIntervalSince1970: 253_402_300_800),
        ]
        for _ in 0..<300 { dates.append(Date(timeIntervalSince1970: Double(Int.random(in: 0..<253_402_300_800, using: &generator)))) }
        return dates
    }()

    @Test("kubectl-exec: the same bytes as Output.jsonDocument for every token and expiry it takes; the others it leaves")
    func kubectlExecAgrees() {
        var taken = 0
        for token in Self.tokens {
            for date in Self.dates.prefix(12) {
                if let fast = TokenOutputBytes.kubectlExecCredential(token: token, expiresAt: date) {
                    #expect(fast == Self.general(token: token, expiresAt: date), "\(token) \(String(describing: date))")
                    taken += 1
                }
            }
        }
        for date in Self.dates {
            let token = "eyJ.abc-_/+=~"
            let fast = TokenOutputBytes.kubectlExecCredential(token: token, expiresAt: date)
            if let fast { #expect(fast == Self.general(token: token, expiresAt: date), "\(String(describing: date))") }
        }
        #expect(taken > 300)
        // Not taken: what needs escaping, and a date ISO8601FormatStyle would round or cannot write.
        for token in ["a\"b", "a\\b", "tab\tin", "é", "\u{7f}", "line\nfeed", ""] {
            #expect(TokenOutputBytes.kubectlExecCredential(token: token, expiresAt: nil) == nil, "\(token)")
        }
        #expect(TokenOutputBytes.rfc3339(Date(timeIntervalSince1970: 1_790_000_000.5)) == nil)
        #expect(TokenOutputBytes.rfc3339(Date(timeIntervalSince1970: -1)) == nil)
    }

    @Test("dates: the same text as Output.rfc3339 from 1970 to 9999")
    func datesAgree() {
        for case let date? in Self.dates {
            if let fast = TokenOutputBytes.rfc3339(date) { #expect(fast == Output.rfc3339(date)) }
        }
    }

    @Test("raw, header and env: the same bytes as string interpolation")
    func plainFormatsAgree() throws {
        for token in Self.tokens {
            let output = TokenRefresh.Output(
                uid: "u", providerID: "oidc.a", tokenType: "Bearer", token: token, isIDToken: false, expiresAt: nil, scopes: [],
                refreshed: false)
            for (format, expected) in [
                (Token.Format.raw, "\(token)\n"), (.header, "Authorization: Bearer \(token)\n"),
                (.env, "export AUTHCTL_TOKEN=\(TokenInvocation.shellWord(token))\n"),
            ] {
                var request = TokenInvocation(settings: Wiring.Settings())
                request.format = format
                #expect(try request.printed(output, proof: nil) == Data(expected.utf8), "\(format) \(token)")
            }
        }
    }

    @Test("headers-json: one JSON object of the headers, read back exactly, for every token; one compact line when plain")
    func headersJSON() throws {
        var request = TokenInvocation(settings: Wiring.Settings())
        request.format = .headersJSON
        for token in Self.tokens {
            for (type, proof) in [("Bearer", nil), ("DPoP", "eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.c2ln")] as [(String, String?)] {
                let output = TokenRefresh.Output(
                    uid: "u", providerID: "oidc.a", tokenType: type, token: token, isIDToken: false, expiresAt: nil, scopes: [],
                    refreshed: false)
                let printed = try request.printed(output, proof: proof)
                let headers = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: String], "\(token)")
                var expected = ["Authorization": "\(type) \(token)"]
                expected["DPoP"] = proof
                #expect(headers == expected, "\(token)")
                #expect(printed.filter { $0 == 0x0A }.count == 1 && printed.last == 0x0A, "one line: \(token)")
                if TokenOutputBytes.isPlainJSON(token) {
                    let line = #"{"Authorization":"\#(type) \#(token)""# + (proof.map { #","DPoP":"\#($0)""# } ?? "") + "}\n"
                    #expect(printed == Data(line.utf8))
                }
            }
        }
        // A DPoP token without --method and --url: refused, as for `header`, naming the format.
        let bound = TokenRefresh.Output(
            uid: "u", providerID: "oidc.a", tokenType: "DPoP", token: "t", isIDToken: false, expiresAt: nil, scopes: [], refreshed: false)
        #expect {
            _ = try request.printed(bound, proof: nil)
        } throws: { "\(($0 as? AuthError)?.message ?? "")".contains("headers-json") }
    }
}

/// The process's environment read one variable at a time (`AuthctlIO.variable`) is the
/// dictionary every command saw before (issue 24: the hot path no longer builds it).
@Suite("The process's environment, read lazily")
struct ProcessEnvironmentTests {
    @Test("each variable reads as ProcessInfo's dictionary has it, before and after the dictionary is built; a test's dictionary is kept")
    func agreesWithProcessInfo() {
        let expected = ProcessInfo.processInfo.environment
        let io = AuthctlIO.process()
        for (name, value) in expected { #expect(io.variable(name) == value, "\(name)") }
        #expect(io.variable("AUTHCTL_NO_SUCH_VARIABLE_\(UInt32.random(in: 0...UInt32.max))") == nil)
        #expect(io.environment == expected)
        for (name, value) in expected { #expect(io.variable(name) == value, "\(name)") }
        var given = io
        given.environment = ["HOME": "/given"]
        #expect(given.variable("HOME") == "/given" && given.variable("PATH") == nil && given.environment == ["HOME": "/given"])
    }

    @Test("the process's browser gets the whole environment, read when it is started (hiding the configured secrets)")
    func browserEnvironment() throws {
        let io = AuthctlIO.process()
        let hidden = try #require(io.browser.hiding(["AUTHCTL_NO_SUCH_SECRET"]) as? SystemBrowserLauncher)
        #expect(hidden.environment == ProcessInfo.processInfo.environment)
        #expect(hidden.configuredSecrets == ["AUTHCTL_NO_SUCH_SECRET"])
    }
}
