import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("The one-time start URL and the listener's local-user check")
struct StartURLAndPeerTests {
    let authorize = URL(string: "https://idp.example/authorize?state=s&nonce=n&code_challenge=c")!
    var expectation: CallbackStateMachine.Expectation {
        .init(
            path: "/callback", state: "s", issuer: "https://idp.example",
            start: .init(path: "/start/0123456789abcdef0123456789abcdef", authorizationURL: authorize))
    }

    func get(_ target: String) -> ReceivedRequest { ReceivedRequest(method: "GET", target: target) }

    @Test("the start URL redirects the browser to the authorization URL once, and the sign-in goes on")
    func startRedirects() {
        var machine = CallbackStateMachine(expectation: expectation)
        let action = machine.receive(get("/start/0123456789abcdef0123456789abcdef"))
        #expect(action.decision == .keepWaiting)
        #expect(action.response.status == 302)
        let wire = String(decoding: action.response.bytes, as: UTF8.self)
        #expect(wire.contains("Location: \(authorize.absoluteString)\r\n"))
        #expect(wire.contains("Cache-Control: no-store") && wire.contains("Referrer-Policy: no-referrer"))
        #expect(machine.receive(get("/callback?code=c&state=s")).decision == .finish(.authorized(AuthorizationResponse(code: "c"))))
    }

    @Test("a second request for the start URL ends the sign-in: another program has it")
    func startTwice() {
        var machine = CallbackStateMachine(expectation: expectation)
        _ = machine.receive(get("/start/0123456789abcdef0123456789abcdef"))
        let second = machine.receive(get("/start/0123456789abcdef0123456789abcdef"))
        #expect(second.decision == .finish(.startURLReused))
        #expect(second.response.status == 410 && second.response.location == nil)
        #expect(machine.receive(get("/callback?code=c&state=s")).decision == .keepWaiting, "nothing can finish it afterwards")
    }

    /// The expectation of a renewed start URL: a new path to a new request with a new `state`.
    var renewal: CallbackStateMachine.Expectation {
        .init(
            path: "/callback", state: "t", issuer: "https://idp.example",
            start: .init(path: "/start/fresh0123456789abcdef0123456789", authorizationURL: renewedAuthorize))
    }
    let renewedAuthorize = URL(string: "https://idp.example/authorize?state=t&nonce=m&code_challenge=d")!

    @Test(
        "a served start URL renewed (its browser showed nothing): the new path leads to a new request, once; the served one stays spent; the old state counts no more"
    )
    func startRenewed() {
        var machine = CallbackStateMachine(expectation: expectation)
        let early = machine.renewStart(to: renewal)
        #expect(!early, "nothing served yet: nothing to renew")
        _ = machine.receive(get("/start/0123456789abcdef0123456789abcdef"))
        let renewing = machine.renewStart(to: renewal)
        #expect(renewing)
        #expect(!machine.startServed && machine.spentStartPaths == ["/start/0123456789abcdef0123456789abcdef"])
        let renewed = machine.receive(get("/start/fresh0123456789abcdef0123456789"))
        #expect(renewed.decision == .keepWaiting && renewed.response.location == renewedAuthorize.absoluteString)
        var other = machine
        let twice = other.receive(get("/start/fresh0123456789abcdef0123456789"))
        #expect(twice.decision == .finish(.startURLReused), "one-time in turn")
        var taken = machine
        let oldState = taken.receive(get("/callback?code=attacker&state=s"))
        #expect(oldState.decision == .keepWaiting && oldState.response.status == 400, "what was taken with the served URL counts no more")
        #expect(taken.receive(get("/callback?code=c&state=t")).decision == .finish(.authorized(AuthorizationResponse(code: "c"))))
        let spent = machine.receive(get("/start/0123456789abcdef0123456789abcdef"))
        #expect(spent.decision == .finish(.startURLReused) && spent.response.status == 410 && spent.response.location == nil)
        #expect(machine.receive(get("/callback?code=c&state=t")).decision == .keepWaiting, "nothing can finish it afterwards")
        var late = CallbackStateMachine(expectation: expectation)
        _ = late.receive(get("/start/0123456789abcdef0123456789abcdef"))
        _ = late.receive(get("/callback?code=c&state=s"))
        let afterEnd = late.renewStart(to: renewal)
        #expect(!afterEnd, "a finished sign-in renews nothing")
    }

    @Test("the listener says when its start URL was served, and judges by a renewal any request that comes after renewStart")
    func listenerRenewsStart() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, access: .anyLocalUser, peers: InTurn([]))
        let outcome = Task {
            let redirect = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: expectation), until: .distantFuture, clock: ManualClock())
            redirect.browser.answer(.text(status: 200, "done"))
            return redirect.outcome
        }
        #expect(!listener.startServed)
        let (first, _) = try await RawLoopbackClient.request("GET /start/0123456789abcdef0123456789abcdef", port: listener.port)
        #expect(first == 302 && listener.startServed)
        let taken = listener.renewStart(to: renewal)
        #expect(taken && !listener.startServed)
        let (renewed, _) = try await RawLoopbackClient.request("GET /start/fresh0123456789abcdef0123456789", port: listener.port)
        #expect(renewed == 302 && listener.startServed)
        let (oldState, _) = try await RawLoopbackClient.request("GET /callback?code=attacker&state=s", port: listener.port)
        #expect(oldState == 400)
        let (_, answer) = try await RawLoopbackClient.request("GET /callback?code=c&state=t", port: listener.port)
        #expect(answer.contains("done"))
        #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")))
        #expect(!listener.startServed, "nothing is awaited any more")
        let late = listener.renewStart(to: renewal)
        #expect(!late, "a wait that has ended renews nothing")
    }

    @Test("a guessed start path is a 404, a POST to the start URL a 405; neither gives away the authorization URL")
    func startGuessed() {
        var machine = CallbackStateMachine(expectation: expectation)
        for request in [
            get("/start/0123456789abcdef0123456789abcdee"), get("/start/"), get("/start"),
            ReceivedRequest(method: "POST", target: "/start/0123456789abcdef0123456789abcdef"),
        ] {
            let action = machine.receive(request)
            #expect(action.decision == .keepWaiting)
            #expect(action.response.location == nil && [404, 405].contains(action.response.status))
        }
        #expect(machine.receive(get("/start/0123456789abcdef0123456789abcdef")).response.status == 302, "the real one still works")
    }

    @Test("without a start page (--manual), /start/… is only a wrong path")
    func noStartPage() {
        var machine = CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example"))
        #expect(machine.receive(get("/start/0123456789abcdef0123456789abcdef")).response.status == 404)
    }

    // /proc/net/tcp as Linux prints it: a listener, the connecting socket, our accepted end,
    // and a socket its process already closed (TIME_WAIT: uid 0, inode 0).
    static let table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:A1B2 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0000000000000000 100 0 0 10 0
           1: 0100007F:C350 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000  1000        0 2222 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:A1B2 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:C351 0100007F:A1B2 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
        """
    let listener = SocketEndpoint(address: [127, 0, 0, 1], port: 0xA1B2)

    @Test("the socket table names the user who owns the connecting end")
    func ownerFromTable() {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            let peer = SocketEndpoint(address: [127, 0, 0, 1], port: 0xC350)
            #expect(ProcNetTCPPeerLookup.owner(in: Self.table, peer: peer, local: listener) == .user(1000))
        #endif
    }

    @Test("a connection whose socket was already closed has no owner (uid 0, inode 0): never taken as root's")
    func closedPeerIsUnknown() {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            let peer = SocketEndpoint(address: [127, 0, 0, 1], port: 0xC351)
            #expect(ProcNetTCPPeerLookup.owner(in: Self.table, peer: peer, local: listener) == .unknown)
        #endif
    }

    @Test("a peer that is not in the table is unknown")
    func missingPeerIsUnknown() {
        let peer = SocketEndpoint(address: [127, 0, 0, 1], port: 0x0001)
        #expect(ProcNetTCPPeerLookup.owner(in: Self.table, peer: peer, local: listener) == .unknown)
        #expect(ProcNetTCPPeerLookup.owner(in: "", peer: peer, local: listener) == .unknown)
    }

    @Test("IPv6 entries are matched on the whole address, ::1 as the kernel prints it")
    func ipv6Table() {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            let table = """
                  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 00000000000000000000000001000000:C350 00000000000000000000000001000000:A1B2 01 00000000:00000000 00:00000000 00000000  1001        0 4444 1
                """
            let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
            let owner = ProcNetTCPPeerLookup.owner(
                in: table, peer: SocketEndpoint(address: loopback, port: 0xC350), local: SocketEndpoint(address: loopback, port: 0xA1B2))
            #expect(owner == .user(1001))
        #endif
    }

    @Test("the live table of this machine names this process as the owner of its own connection")
    func liveTable() async throws {
        #if os(Linux)
            let recorder = RecordingLookup()
            let checked = try RedirectListener(host: "127.0.0.1", port: 0, peers: recorder)
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(client) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = checked.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(connected == 0)
            _ = "GET /callback?code=c&state=s HTTP/1.1\r\nHost: x\r\n\r\n".withCString { send(client, $0, strlen($0), 0) }
            let redirect = try await checked.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), until: .distantFuture,
                clock: ManualClock())
            redirect.browser.answer(.text(status: 200, "done"))
            #expect(redirect.outcome == .authorized(AuthorizationResponse(code: "c")))
            #expect(recorder.owners == [.user(UInt32(geteuid()))])
        #endif
    }

    @Test("by default only the user's own connections are served; --allow-any-local-user serves every one")
    func access() {
        let me = LoopbackAccess.sameUser(1000)
        #expect(me.admits(.user(1000)))
        #expect(!me.admits(.user(1001)))
        #expect(!me.admits(.user(0)))
        #expect(!me.admits(.unknown))
        #expect(LoopbackAccess.anyLocalUser.admits(.user(1001)) && LoopbackAccess.anyLocalUser.admits(.unknown))
    }

    @Test("a connection from another user gets a 403 that sends to the terminal's advice, and the real redirect still gets through")
    func otherUserForbidden() async throws {
        // The user is 4242: the first connection is uid 7's, the next the user's own.
        let listener = try RedirectListener(
            host: "127.0.0.1", port: 0, access: .sameUser(4242), peers: InTurn([.user(7), .user(4242)]))
        let events = EventLog()
        let outcome = Task {
            let redirect = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), until: .distantFuture,
                clock: ManualClock()
            ) { events.append($0) }
            redirect.browser.answer(.text(status: 200, "done"))
            return redirect.outcome
        }
        let (status, body) = try await RawLoopbackClient.request("GET /callback?code=attacker&state=s", port: listener.port)
        #expect(status == 403 && body.contains("the terminal says how to allow it") && !body.contains("--"))
        #expect(events.all == [.refusedPeer(.user(7))])
        let (own, _) = try await RawLoopbackClient.request("GET /callback?code=c&state=s", port: listener.port)
        #expect(own == 200)
        #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")), "the right state from another user did not count")
    }
}

extension StartURLAndPeerTests {
    @Test("a connection that its client closed before its owner was looked up, without a request, is nothing: no refusal, no warning")
    func closedBeforeLookup() async throws {
        // The kernel's table names no owner for a socket its process already closed: .unknown.
        let peers = InTurn([.unknown, .user(4242)])
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, access: .sameUser(4242), peers: peers)
        let events = EventLog()
        let outcome = Task {
            let redirect = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), until: .distantFuture,
                clock: ManualClock()
            ) { events.append($0) }
            redirect.browser.answer(.text(status: 200, "done"))
            return redirect.outcome
        }
        // A speculative pre-connect, or lynx without a terminal: connects, closes, sends nothing.
        let preconnect = RawLoopbackClient.connect(port: listener.port)
        #expect(preconnect >= 0)
        close(preconnect)
        // The listener looked up its owner (.unknown) before the own request connects.
        while peers.asked < 1 { await Task.yield() }
        let (own, _) = try await RawLoopbackClient.request("GET /callback?code=c&state=s", port: listener.port)
        #expect(own == 200)
        #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")))
        #expect(events.all.isEmpty, "a connection that asked nothing is not worth a warning: \(events.all)")
    }

    @Test("a connection whose owner is unknown that does send a request is still refused (403) and reported")
    func unknownWithRequest() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, access: .sameUser(4242), peers: InTurn([.unknown, .user(4242)]))
        let events = EventLog()
        let outcome = Task {
            let redirect = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), until: .distantFuture,
                clock: ManualClock()
            ) { events.append($0) }
            redirect.browser.answer(.text(status: 200, "done"))
            return redirect.outcome
        }
        let (status, _) = try await RawLoopbackClient.request("GET /callback?code=attacker&state=s", port: listener.port)
        #expect(status == 403)
        #expect(events.all == [.refusedPeer(.unknown)])
        let (own, _) = try await RawLoopbackClient.request("GET /callback?code=c&state=s", port: listener.port)
        #expect(own == 200)
        #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")))
    }
}

/// A socket table that names these owners, one per connection, in turn.
final class InTurn: LoopbackPeerLookup, @unchecked Sendable {
    private let lock = NSLock()
    private var owners: [LoopbackPeerOwner]
    private var count = 0
    init(_ owners: [LoopbackPeerOwner]) { self.owners = owners }
    /// How many owners were asked for.
    var asked: Int { lock.withLock { count } }
    func owner(ofPeer peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> LoopbackPeerOwner {
        lock.withLock {
            count += 1
            return owners.isEmpty ? .unknown : owners.removeFirst()
        }
    }
}

/// The real table, with every answer kept.
final class RecordingLookup: LoopbackPeerLookup, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [LoopbackPeerOwner] = []
    var owners: [LoopbackPeerOwner] { lock.withLock { recorded } }
    func owner(ofPeer peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> LoopbackPeerOwner {
        let owner = ProcNetTCPPeerLookup().owner(ofPeer: peer, connectedTo: local)
        lock.withLock { recorded.append(owner) }
        return owner
    }
}

final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [RedirectListener.Event] = []
    var all: [RedirectListener.Event] { lock.withLock { events } }
    func append(_ event: RedirectListener.Event) { lock.withLock { events.append(event) } }
}

@Suite("The listener's address")
struct ListenerAddressTests {
    @Test("localhost in any case binds 127.0.0.1 (it is loopback by name, RFC 6761)", arguments: ["localhost", "LOCALHOST", "LocalHost"])
    func localhostAnyCase(host: String) throws {
        let listener = try RedirectListener(host: host, port: 0, peers: ProcNetTCPPeerLookup())
        #expect(listener.port > 0)
    }
}
