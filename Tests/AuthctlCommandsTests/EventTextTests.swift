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

}
