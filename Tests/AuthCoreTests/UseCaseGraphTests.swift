import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// One object graph per command (issue 36): `UseCaseGraph` makes the command's one
/// `TokenClient`, so every use case of a command shares one set of DPoP nonces (RFC 9449 §8).
@Suite("one object graph per command")
struct UseCaseGraphTests {
    static func graph() -> UseCaseGraph {
        let clock = ManualClock()
        let random = SeededRandom()
        return UseCaseGraph(
            UseCasePorts(
                transport: StubTransport { _ in HTTPResponse(status: 500) }, clock: clock, random: random, browser: NoBrowserLauncher(),
                keystore: InMemoryKeystore(), configStore: ConfigStore(storage: InMemoryConfigStorage()), metadataCache: NoMetadataCache(),
                secrets: StaticSecrets([:]), events: RecordingEvents(),
                redirectReceivers: SystemRedirectReceivers(clock: clock, random: random, peers: ProcNetTCPPeerLookup()) { nil },
                prompt: RecordingTerminal()))
    }

    @Test("a DPoP nonce one use case learned is sent by the next of the same command: one token client in the graph")
    func oneTokenClient() throws {
        let graph = Self.graph()
        let server = DPoPNonces.Server(url: try #require(URL(string: "https://as.example/token")), clientID: "c")
        graph.tokenRefresh.tokens.nonces.remember(HTTPResponse(status: 400, headers: ["DPoP-Nonce": "learned"]), for: server)
        let clients = [
            graph.tokens, graph.tokenExchange.tokens, graph.tokenExchange.refresh.tokens, graph.awsRoleCredentials.refresh.tokens,
            graph.awsRoleCredentials.exchange.tokens, graph.gcpSubjectToken.exchange.tokens, graph.tokenRevocation.tokens,
            graph.sessionCheck.tokens, graph.resourceTokens.tokens, graph.resourceRequest.tokens.tokens,
            graph.with(browser: NoBrowserLauncher()).tokenRefresh.tokens, graph.with(keystore: InMemoryKeystore()).tokenRefresh.tokens,
        ]
        for client in clients {
            #expect(client.nonces === graph.tokens.nonces)
            #expect(client.nonces.nonce(for: server) == "learned")
        }
    }
}
