import Net
import Support
import Synchronization
import Wire

/// The simulated TV's UPnP event subscribers (GENA, UDA 1.1 §4): who subscribed, until when,
/// what each was last told. `changed` is signalled on every change that may concern them.
final class SamsungEventHub: Sendable {
    struct Subscriber {
        var callback: URLParts
        var expires: ContinuousClock.Instant
        var seq: UInt32 = 0
        /// The volume and mute last sent; nil before the initial event.
        var sent: (volume: Int, muted: Bool)?
    }

    struct State {
        var subscribers: [String: Subscriber] = [:]
        var accepting: Bool
        var notifierStarted = false
        var nextSID = 0
    }

    let state: Mutex<State>
    let changed = Wakeup()

    init(accepting: Bool) {
        state = Mutex(State(accepting: accepting))
    }
}

/// UPnP eventing on `portUPnP`: `SUBSCRIBE` (new and renewal) and `UNSUBSCRIBE` on
/// `/upnp/event/RenderingControl1`, and a `NOTIFY` with RenderingControl's `LastChange`
/// (volume and mute, Master channel) to every subscriber at subscription (SEQ 0) and on every
/// change, from the TV's own address. Subscriptions end at their timeout, at `UNSUBSCRIBE`,
/// and when the TV leaves `on` (its UPnP server stops). Each request is logged as kind
/// `subscribe` with an `action`: `subscribe`, `renew`, `unsubscribe`, `refused`, `notify`.
extension SamsungSimulator {
    static let eventPath = "/upnp/event/RenderingControl1"

    /// Accepts or refuses UPnP event subscriptions from now on (refused: 412).
    public func setAcceptsSubscriptions(_ accepts: Bool) {
        eventHub.state.withLock { $0.accepting = accepts }
    }

    /// The subscriptions in force, by SID.
    public var eventSubscriptionIDs: [String] { eventHub.state.withLock { $0.subscribers.keys.sorted() } }

    func handleSubscription(_ request: HTTPRequest) -> SimHTTPReply {
        let headers = request.headers
        let sid = headers["SID"]
        let hasNT = headers.contains("NT")
        let hasCallback = headers.contains("CALLBACK")
        switch request.method {
        case "SUBSCRIBE":
            if let sid {
                guard !hasNT && !hasCallback else { return refuse(400, "SID with NT or CALLBACK", request) }
                return renew(sid, timeout: headers["TIMEOUT"])
            }
            guard headers["NT"] == GENA.notificationType else { return refuse(412, "NT is not upnp:event", request) }
            guard let callback = Self.callbackURL(headers["CALLBACK"]) else {
                return refuse(412, "no usable CALLBACK", request)
            }
            return subscribe(callback, timeout: headers["TIMEOUT"], request)
        case "UNSUBSCRIBE":
            guard let sid else { return refuse(412, "no SID", request) }
            guard !hasNT && !hasCallback else { return refuse(400, "SID with NT or CALLBACK", request) }
            let removed = eventHub.state.withLock { $0.subscribers.removeValue(forKey: sid) != nil }
            guard removed else { return refuse(412, "unknown SID", request) }
            record("subscribe", ["action": "unsubscribe", "sid": .string(sid)])
            return SimHTTPReply(HTTPResponse(status: 200))
        default:
            return SimHTTPReply(SimResponse.methodNotAllowed)
        }
    }

    private func subscribe(_ callback: URLParts, timeout: String?, _ request: HTTPRequest) -> SimHTTPReply {
        // A loopback TV only ever calls loopback peers.
        if (try? SocketAddress(ip: options.host, port: 0))?.isLoopback ?? true,
            (try? SocketAddress(ip: callback.host, port: 0))?.isLoopback != true
        {
            return refuse(412, "callback \(callback.host) is not a loopback address", request)
        }
        let seconds = grantedSeconds(timeout)
        let sid = eventHub.state.withLock { state -> String? in
            guard state.accepting else { return nil }
            state.nextSID += 1
            let sid = "uuid:5ec5e1d0-0000-1000-8000-\(String(format6(state.nextSID)))\(identity.wifiMAC.suffix(2))"
            state.subscribers[sid] = SamsungEventHub.Subscriber(
                callback: callback, expires: .now + .seconds(seconds))
            return sid
        }
        guard let sid else { return refuse(412, "this TV refuses event subscriptions", request) }
        record(
            "subscribe",
            [
                "action": "subscribe", "sid": .string(sid), "callback": .string(callback.description),
                "timeout": .integer(Int64(seconds)),
            ])
        startNotifier()
        // The initial event goes out once the answer carrying the SID is on its way.
        return SimHTTPReply(Self.subscribed(sid, seconds)) { [eventHub] in eventHub.changed.signal() }
    }

    private func renew(_ sid: String, timeout: String?) -> SimHTTPReply {
        let seconds = grantedSeconds(timeout)
        let known = eventHub.state.withLock { state -> Bool in
            guard state.accepting, let subscriber = state.subscribers[sid], subscriber.expires > .now else {
                state.subscribers[sid] = nil
                return false
            }
            state.subscribers[sid]?.expires = .now + .seconds(seconds)
            return true
        }
        guard known else {
            record("subscribe", ["action": "refused", "status": 412, "why": "unknown SID", "sid": .string(sid)])
            return SimHTTPReply(HTTPResponse(status: 412))
        }
        record("subscribe", ["action": "renew", "sid": .string(sid), "timeout": .integer(Int64(seconds))])
        return SimHTTPReply(Self.subscribed(sid, seconds))
    }

    private func refuse(_ status: Int, _ why: String, _ request: HTTPRequest) -> SimHTTPReply {
        record(
            "subscribe",
            [
                "action": "refused", "status": .integer(Int64(status)), "why": .string(why),
                "method": .string(request.method),
            ])
        return SimHTTPReply(HTTPResponse(status: status))
    }

    private func grantedSeconds(_ timeout: String?) -> Int {
        min(GENA.parseTimeout(timeout) ?? options.eventTimeoutSeconds, options.eventTimeoutSeconds)
    }

    private static func subscribed(_ sid: String, _ seconds: Int) -> HTTPResponse {
        var response = HTTPResponse(status: 200)
        response.headers.set(name: "SID", value: sid)
        response.headers.set(name: "TIMEOUT", value: "Second-\(seconds)")
        return response
    }

    /// The first `<http://…>` of a `CALLBACK` header (UDA: one or more URLs in angle brackets).
    static func callbackURL(_ header: String?) -> URLParts? {
        guard let header, let open = header.firstIndex(of: "<"),
            let close = header[open...].firstIndex(of: ">")
        else { return nil }
        let text = String(header[header.index(after: open)..<close])
        guard let url = try? URLParts(parsing: text), url.scheme == "http" else { return nil }
        return url
    }

    // MARK: NOTIFY

    /// One task per TV sends every NOTIFY, in order, so SEQ numbers arrive in sequence.
    private func startNotifier() {
        let start = eventHub.state.withLock { state -> Bool in
            defer { state.notifierStarted = true }
            return !state.notifierStarted
        }
        guard start else { return }
        spawn { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                await self.notifySubscribers()
                _ = await self.eventHub.changed.wait(timeout: .seconds(1), clock: .system)
            }
        }
    }

    private func notifySubscribers() async {
        let (power, volume, muted) = core.withLock { ($0.state.power, $0.state.volume, $0.state.muted) }
        let due = eventHub.state.withLock { state -> [(String, SamsungEventHub.Subscriber)] in
            let now = ContinuousClock.now
            // Off or in standby the UPnP server is down: every subscription ends with it.
            if power != .on { state.subscribers = [:] }
            state.subscribers = state.subscribers.filter { $0.value.expires > now }
            var due: [(String, SamsungEventHub.Subscriber)] = []
            for (sid, subscriber) in state.subscribers
            where subscriber.sent.map({ $0.volume != volume || $0.muted != muted }) ?? true {
                due.append((sid, subscriber))
                state.subscribers[sid]?.sent = (volume, muted)
                state.subscribers[sid]?.seq = subscriber.seq == UInt32.max ? 1 : subscriber.seq + 1
            }
            return due
        }
        for (sid, subscriber) in due {
            // The initial event lists every variable; later ones only what changed.
            let previous = subscriber.sent
            let value = SamsungDocuments.lastChange(
                volume: previous?.volume == volume ? nil : volume, muted: previous?.muted == muted ? nil : muted)
            let request = GENANotify.request(
                path: subscriber.callback.requestTarget, host: subscriber.callback.hostHeader, sid: sid,
                seq: subscriber.seq, properties: [GENAProperty(name: "LastChange", value: value)])
            let status = await send(request, to: subscriber.callback)
            record(
                "subscribe",
                [
                    "action": "notify", "sid": .string(sid), "seq": .integer(Int64(subscriber.seq)),
                    "volume": .integer(Int64(volume)), "muted": .bool(muted), "status": .integer(Int64(status ?? 0)),
                ])
        }
    }

    /// Sends one NOTIFY from the TV's address; the subscriber's status, nil when it did not answer.
    private func send(_ request: HTTPRequest, to callback: URLParts) async -> Int? {
        guard let address = try? SocketAddress(ip: callback.host, port: callback.effectivePort),
            let local = try? SocketAddress(ip: options.host, port: 0),
            let bytes = try? request.encode()
        else { return nil }
        let deadline = ContinuousClock.now + .seconds(5)
        guard let connection = try? await TCPConnection.connect(to: address, from: local, timeout: .seconds(5))
        else { return nil }
        defer { connection.close() }
        var parser = HTTPResponseParser(maxBodyBytes: 64 * 1024)
        do {
            try await connection.write(bytes, deadline: deadline)
            while true {
                let chunk = try await connection.read(maxBytes: 16 * 1024, deadline: deadline)
                if chunk.isEmpty { return try parser.finish(requestMethod: "NOTIFY")?.status }
                parser.append(chunk)
                if let response = try parser.next(requestMethod: "NOTIFY") { return response.status }
            }
        } catch {
            return nil
        }
    }
}

private func format6(_ number: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, 10 - text.count)) + text
}

extension SamsungDocuments {
    /// RenderingControl's `LastChange` value with the variables given, as a Samsung sends it
    /// (the shape of a capture: `Tests/Fixtures/samsung/rendering_lastchange.xml`).
    static func lastChange(volume: Int?, muted: Bool?) -> String {
        var variables = ""
        if let muted { variables += "<Mute channel=\"Master\" val=\"\(muted ? 1 : 0)\"/>" }
        if let volume { variables += "<Volume channel=\"Master\" val=\"\(volume)\"/>" }
        return "<Event xmlns=\"urn:schemas-upnp-org:metadata-1-0/RCS/\"><InstanceID val=\"0\">\(variables)"
            + "</InstanceID></Event>"
    }
}
