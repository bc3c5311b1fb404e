import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore
@testable import AuthctlCommands

/// A command's object graph is built once (`Wiring.useCases`, issue 36): every use case the
/// command asks for, whatever browser it names, shares the command's one `TokenClient`, so a
/// DPoP nonce (RFC 9449 §8) one of them learned is sent by the next.
@Suite("Wiring builds one object graph per command")
struct WiringGraphTests {
    @Test("the use cases of one command share one token client; another command has its own")
    func oneTokenClientPerCommand() throws {
        let authctl = InProcessAuthctl()
        let io = authctl.io(
            stdin: ScriptedInput(Data(), isTerminal: false), stdout: CapturedOutput(isTerminal: false),
            stderr: CapturedOutput(isTerminal: false), environment: [:])
        let wiring = Wiring(settings: Wiring.Settings(), io: io)
        let server = DPoPNonces.Server(url: try #require(URL(string: "https://as.example/token")), clientID: "c")
        wiring.useCases().tokenRefresh.tokens.nonces.remember(HTTPResponse(status: 400, headers: ["DPoP-Nonce": "learned"]), for: server)
        let later = [
            wiring.useCases().tokenExchange.tokens, wiring.useCases(browser: NoBrowserLauncher()).awsRoleCredentials.exchange.tokens,
            wiring.useCases().resourceTokens.tokens, wiring.useCases().tokens,
        ]
        for client in later { #expect(client.nonces.nonce(for: server) == "learned") }
        let next = Wiring(settings: Wiring.Settings(), io: io)
        #expect(next.useCases().tokens.nonces.nonce(for: server) == nil, "a nonce lives for one command")
    }
}
