import AuthCore
import Foundation
import Testing

@testable import AuthctlCommands

/// The core reports events as values; these are the words a person reads on stderr.
@Suite("Events are worded on stderr as before")
struct EventTextTests {
    @Test("Microsoft Graph's two warnings, and a failed refresh under exec, word for word")
    func words() {
        #expect(
            EventText.text(
                of: .profileIncomplete(.graphRefused(endpoint: "graph.microsoft.com/v1.0/me", status: 403, errorCode: "Forbidden")))
                == "authctl: could not read the Microsoft Graph profile at graph.microsoft.com/v1.0/me (HTTP 403, Forbidden); the ID token's name and email are kept"
        )
        #expect(
            EventText.text(of: .profileIncomplete(.graphRefused(endpoint: "graph.microsoft.com/v1.0/me", status: 500, errorCode: nil)))
                == "authctl: could not read the Microsoft Graph profile at graph.microsoft.com/v1.0/me (HTTP 500); the ID token's name and email are kept"
        )
        #expect(
            EventText.text(of: .profileIncomplete(.graphUnreachable(endpoint: "127.0.0.1/v1.0/me")))
                == "authctl: could not read the Microsoft Graph profile at 127.0.0.1/v1.0/me; the ID token's name and email are kept")
        #expect(
            EventText.text(of: .runningCommandRefreshFailed(.network("could not reach idp.example")))
                == "authctl: could not refresh the token for the running command: could not reach idp.example")
    }

    @Test("the device code names the host it was started on and warns against codes sent by others; both URLs shown")
    func deviceCodeWarning() throws {
        let event = SignInEvent.deviceCode(
            provider: try ProviderID(parsing: "oidc.x"), verificationURI: URL(string: "https://idp.example/device")!,
            verificationURIComplete: URL(string: "https://idp.example/device?user_code=ABCD")!, userCode: "ABCD")
        guard case .notice(let text) = EventText.line(event, interactive: false, hostName: "build-7\u{1B}[2J") else {
            Issue.record("a notice")
            return
        }
        #expect(
            text.contains("https://idp.example/device?user_code=ABCD")
                && text.contains("https://idp.example/device and enter the code ABCD"))
        #expect(text.contains("started by authctl on the machine build-7\\u{1B}[2J"), "the host name, made visible-safe")
        #expect(text.contains("only if you started it yourself") && text.contains("never a code someone sent you"))
    }

    @Test("CIBA's binding message and the remote bootstrap command, word for word")
    func headlessLines() throws {
        let provider = try ProviderID(parsing: "oidc.x")
        #expect(
            EventText.line(.approveOnDevice(provider: provider, bindingMessage: "amber-falcon-42"), interactive: false)
                == .notice(
                    "oidc.x has asked you to approve this sign-in on your device. Approve it only if your device shows: amber-falcon-42"))
        guard case .notice(let text) = EventText.line(.remoteBootstrap(argument: "b1.abc_-", provider: provider), interactive: false)
        else {
            Issue.record("a notice")
            return
        }
        #expect(text.split(separator: "\n").contains("authctl bootstrap 'b1.abc_-'"), "one line: the command and one quoted argument")
    }
}
