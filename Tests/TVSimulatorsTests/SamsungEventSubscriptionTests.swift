import Clients
import Net
import TVSimulators
import Testing
import Wire

/// UPnP eventing on the simulated Samsung's UPnP port (generous deadlines: the suite starts
/// with hundreds of tests at once): SUBSCRIBE, renewals, UNSUBSCRIBE and
/// the NOTIFYs it sends (from its own address) to a callback listener the test runs.
@Suite struct SamsungEventSubscriptionTests {
    /// Accepts one NOTIFY on `listener`, answers 200; the request and where it came from.
    func nextNotify(_ listener: TCPListener) async throws -> (HTTPRequest, SocketAddress) {
        let connection = try await listener.accept(deadline: .now + .seconds(20))
        defer { connection.close() }
        var parser = HTTPRequestParser()
        while true {
            let chunk = try await connection.read(maxBytes: 16 * 1024, deadline: .now + .seconds(15))
            guard !chunk.isEmpty else { throw NetError(.closed, "notify", "closed") }
            parser.append(chunk)
            if let request = try parser.next() {
                try await connection.write(try HTTPResponse(status: 200).encode(), deadline: .now + .seconds(15))
                return (request, connection.remote)
            }
        }
    }

    func subscribe(_ client: HTTPClient, _ headers: [(String, String)]) async throws -> HTTPResponse {
        try await client.request("SUBSCRIBE", "/upnp/event/RenderingControl1", headers: HTTPHeaders(headers))
    }

    @Test func subscribeNotifyRenewUnsubscribe() async throws {
        var options = samsungOptions()
        options.eventTimeoutSeconds = 300
        try await withSamsung(options) { (sim, _, log) async throws in
            let callbacks = try TCPListener.bind(host: "127.0.0.1", port: 0)
            defer { callbacks.close() }
            let upnp = HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
            defer { Task { await upnp.closeIdle() } }
            let callback = "http://127.0.0.1:\(callbacks.address.port)/cb"
            let answer = try await subscribe(
                upnp, [("CALLBACK", "<\(callback)>"), ("NT", "upnp:event"), ("TIMEOUT", "Second-1800")])
            #expect(answer.status == 200)
            let granted = try GENASubscribeAnswer(headers: answer.headers)
            #expect(granted.timeoutSeconds == 300, "capped at the TV's longest")

            // The initial event (SEQ 0) lists volume and mute, from the TV's own address.
            let (initial, from) = try await nextNotify(callbacks)
            #expect(from.ip == sim.host)
            let first = try GENANotify.parse(initial)
            #expect(first.sid == granted.sid)
            #expect(first.seq == 0)
            #expect(initial.target == "/cb")
            let lastChange = try #require(first.value(of: "LastChange"))
            #expect(lastChange.contains(#"<Volume channel="Master" val="12"/>"#))
            #expect(lastChange.contains(#"<Mute channel="Master" val="0"/>"#))

            // A change through /sim/state: SEQ 1, only what changed.
            try sim.apply(["volume": 30])
            let (change, _) = try await nextNotify(callbacks)
            let second = try GENANotify.parse(change)
            #expect(second.seq == 1)
            #expect(second.value(of: "LastChange")?.contains(#"val="30""#) == true)
            #expect(second.value(of: "LastChange")?.contains("Mute") == false)

            // Renewals: the SID alone; an unknown SID is 412, SID with NT is 400.
            let renewed = try await subscribe(upnp, [("SID", granted.sid), ("TIMEOUT", "Second-60")])
            #expect(renewed.status == 200)
            #expect(renewed.headers["TIMEOUT"] == "Second-60")
            #expect(try await subscribe(upnp, [("SID", "uuid:nobody"), ("TIMEOUT", "Second-60")]).status == 412)
            #expect(try await subscribe(upnp, [("SID", granted.sid), ("NT", "upnp:event")]).status == 400)
            #expect(try await subscribe(upnp, [("CALLBACK", "<\(callback)>"), ("NT", "ssdp:all")]).status == 412)
            #expect(
                try await subscribe(upnp, [("CALLBACK", "<http://192.0.2.1:1/x>"), ("NT", "upnp:event")]).status == 412)

            let unknown = try await upnp.request(
                "UNSUBSCRIBE", "/upnp/event/RenderingControl1", headers: HTTPHeaders([("SID", "uuid:nobody")]))
            #expect(unknown.status == 412)
            let gone = try await upnp.request(
                "UNSUBSCRIBE", "/upnp/event/RenderingControl1", headers: HTTPHeaders([("SID", granted.sid)]))
            #expect(gone.status == 200)
            #expect(sim.eventSubscriptionIDs.isEmpty)
            let actions = log.entries.filter { $0["kind"] == "subscribe" }.compactMap { $0["action"]?.stringValue }
            #expect(actions.contains("subscribe") && actions.contains("renew") && actions.contains("unsubscribe"))
            let refused = actions.filter { $0 == "refused" }.count
            #expect(refused == 5)
        }
    }

    @Test func refusingTVAndStandbyEndSubscriptions() async throws {
        var options = samsungOptions()
        options.acceptsSubscriptions = false
        try await withSamsung(options) { (sim, _, _) async throws in
            let upnp = HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
            let headers = [("CALLBACK", "<http://127.0.0.1:9/cb>"), ("NT", "upnp:event")]
            #expect(try await subscribe(upnp, headers).status == 412)
            sim.setAcceptsSubscriptions(true)
            #expect(try await subscribe(upnp, headers).status == 200)
            #expect(sim.eventSubscriptionIDs.count == 1)
            await upnp.closeIdle()
            // Standby stops the TV's UPnP server, and its subscriptions with it.
            try sim.apply(["power": "standby"])
            let ended = await waitForEmpty(sim)
            #expect(ended)
        }
    }

    func waitForEmpty(_ sim: SamsungSimulator) async -> Bool {
        for _ in 0..<750 {
            if sim.eventSubscriptionIDs.isEmpty { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
