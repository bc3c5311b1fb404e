import AuthCore
import Foundation
import Testing

@Suite("Loopback redirect handling")
struct CallbackStateMachineTests {
    let expectation = CallbackStateMachine.Expectation(path: "/callback", state: "expected-state", issuer: "https://idp.example")

    func get(_ target: String) -> ReceivedRequest { ReceivedRequest(method: "GET", target: target) }

    @Test("the right state and a code finish the flow; the listener's own page then claims nothing (the flow tells the outcome)")
    func success() {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(get("/callback?code=abc&state=expected-state"))
        #expect(action.decision == .finish(.authorized(AuthorizationResponse(code: "abc"))))
        #expect(action.response.status == 200)
        // Sent only when the flow's page is late: it sends to the terminal, never says "Signed in".
        #expect(action.response.body.contains("Return to the terminal") && !action.response.body.contains("Signed in"))
        let wire = String(decoding: action.response.bytes, as: UTF8.self)
        #expect(wire.contains("Cache-Control: no-store") && wire.contains("Referrer-Policy: no-referrer"))
    }

    @Test("a redirect with the wrong state is refused and the listener keeps waiting")
    func wrongState() {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(get("/callback?code=abc&state=other"))
        #expect(action.decision == .keepWaiting)
        #expect(action.response.status == 400)
        #expect(machine.receive(get("/callback?code=abc&state=expected-state")).decision != .keepWaiting)
    }

    @Test("a redirect without state is refused and the listener keeps waiting")
    func missingState() {
        var machine = CallbackStateMachine(expectation: expectation)
        #expect(machine.receive(get("/callback?code=abc")).decision == .keepWaiting)
        #expect(machine.receive(get("/callback?state=")).decision == .keepWaiting)
    }

    @Test("a provider error with the right state ends the flow; its description is not echoed into the page")
    func errorRightState() {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(
            get("/callback?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=expected-state"))
        guard case .finish(.denied(let error)) = action.decision else { Issue.record("not denied"); return }
        #expect(error.error == "access_denied")
        #expect(!action.response.body.contains("script"))
    }

    @Test("a provider error with a wrong state does not end the flow")
    func errorWrongState() {
        var machine = CallbackStateMachine(expectation: expectation)
        #expect(machine.receive(get("/callback?error=access_denied&state=forged")).decision == .keepWaiting)
    }

    @Test(
        "repeated parameters are refused",
        arguments: [
            "/callback?code=a&code=b&state=expected-state", "/callback?code=a&state=expected-state&state=expected-state",
        ])
    func repeated(target: String) {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(get(target))
        #expect(action.decision == .keepWaiting && action.response.status == 400)
    }

    @Test("a response with both code and error is refused")
    func codeAndError() {
        var machine = CallbackStateMachine(expectation: expectation)
        #expect(machine.receive(get("/callback?code=a&error=access_denied&state=expected-state")).decision == .keepWaiting)
    }

    @Test(
        "wrong paths, favicon requests and other methods get a 4xx and change nothing",
        arguments: [
            ("GET", "/favicon.ico"), ("GET", "/"), ("GET", "/callback/extra?code=a&state=expected-state"),
            ("PUT", "/callback?code=a&state=expected-state"),
        ])
    func strays(method: String, target: String) {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(ReceivedRequest(method: method, target: target))
        #expect(action.decision == .keepWaiting)
        #expect((400..<500).contains(action.response.status))
        #expect(!machine.isFinished)
    }

    @Test("a form_post body is accepted like a query")
    func formPost() {
        var machine = CallbackStateMachine(expectation: expectation)
        let request = ReceivedRequest(
            method: "POST", target: "/callback", headers: ["content-type": "application/x-www-form-urlencoded"],
            body: Data("code=abc&state=expected-state&user=%7B%7D".utf8))
        #expect(
            machine.receive(request).decision == .finish(.authorized(AuthorizationResponse(code: "abc", extraParameters: ["user": "{}"]))))
    }

    @Test("an iss from another issuer is refused (RFC 9207 mix-up defence)")
    func issuerMismatch() {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(get("/callback?code=a&state=expected-state&iss=https%3A%2F%2Fevil.example"))
        guard case .finish(.refused) = action.decision else { Issue.record("not refused"); return }
    }

    @Test("a missing iss is refused when the provider promises it")
    func issuerRequired() {
        var machine = CallbackStateMachine(
            expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example", issuerParameterRequired: true))
        guard case .finish(.refused) = machine.receive(get("/callback?code=a&state=s")).decision else {
            Issue.record("not refused"); return
        }
        var second = CallbackStateMachine(
            expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example", issuerParameterRequired: true))
        guard case .finish(.authorized) = second.receive(get("/callback?code=a&state=s&iss=https%3A%2F%2Fidp.example")).decision else {
            Issue.record("not authorized"); return
        }
    }

    @Test("the state is good for one use only")
    func oneUse() {
        var machine = CallbackStateMachine(expectation: expectation)
        _ = machine.receive(get("/callback?code=a&state=expected-state"))
        let again = machine.receive(get("/callback?code=b&state=expected-state"))
        #expect(again.decision == .keepWaiting && again.response.status == 410)
    }
}

@Suite("HTTP request parsing on the listener")
struct HTTPRequestParserTests {
    @Test("a request split over several reads is assembled")
    func incremental() {
        var parser = HTTPRequestParser()
        #expect(parser.append(Array("GET /callback?code=a HT".utf8)) == .needMore)
        #expect(
            parser.append(Array("TP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                == .complete(ReceivedRequest(method: "GET", target: "/callback?code=a", headers: ["host": "127.0.0.1"])))
    }

    @Test("an oversized header is refused with 431")
    func oversizedHeader() {
        var parser = HTTPRequestParser()
        let request = "GET / HTTP/1.1\r\nX-Junk: " + String(repeating: "a", count: 9000)
        #expect(parser.append(Array(request.utf8)) == .invalid(status: 431))
    }

    @Test("an oversized body is refused with 413 before it is read")
    func oversizedBody() {
        var parser = HTTPRequestParser()
        #expect(parser.append(Array("POST /callback HTTP/1.1\r\nContent-Length: 999999\r\n\r\n".utf8)) == .invalid(status: 413))
    }

    @Test("junk that is not HTTP is refused with 400")
    func junk() {
        var parser = HTTPRequestParser()
        #expect(parser.append(Array("\u{16}\u{03}\u{01} hello\r\n\r\n".utf8)) == .invalid(status: 400))
    }

    @Test("chunked bodies are refused rather than misread")
    func chunked() {
        var parser = HTTPRequestParser()
        #expect(parser.append(Array("POST /callback HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)) == .invalid(status: 501))
    }
}

@Suite("--manual: what a person pastes")
struct PastedResponseTests {
    let machine = CallbackStateMachine(expectation: .init(path: "/callback", state: "s-123", issuer: "https://idp.example"))

    func outcome(_ pasted: String) -> CallbackStateMachine.Decision {
        var machine = self.machine
        return machine.receive(PastedResponse.request(from: pasted, redirectPath: "/callback")).decision
    }

    @Test("the redirect URL the browser ended on, or the posted form body, with the right state")
    func accepted() {
        #expect(outcome("http://127.0.0.1:8400/callback?code=c-1&state=s-123\n") == .finish(.authorized(.init(code: "c-1"))))
        #expect(outcome("  code=c-1&state=s-123  ") == .finish(.authorized(.init(code: "c-1"))))
        #expect(outcome("?code=c-1&state=s-123") == .finish(.authorized(.init(code: "c-1"))))
    }

    @Test("another state, another path, a code in a fragment, or junk never finish the flow")
    func refused() {
        for pasted in [
            "http://127.0.0.1:8400/callback?code=c-1&state=other", "http://127.0.0.1:8400/elsewhere?code=c-1&state=s-123",
            "http://127.0.0.1:8400/callback#code=c-1&state=s-123", "hello", "code=c-1",
        ] {
            #expect(outcome(pasted) == .keepWaiting, "\(pasted)")
        }
    }
}
