import Clients
import Drivers
import Foundation
import Net
import TestSupport
import Testing
import Wire

@testable import Bridge

/// `tv/add` reaches only what a TV can be, and is bounded: the addresses and ports it may
/// connect to (`AddTVPolicy`), how many probes run and how often (`AddTVGate`), how many TVs
/// the bridge keeps (`max_tvs`), and what of a device's answer comes back (nothing).
@Suite("tv/add limits")
struct AddTVLimitTests {
    @discardableResult
    func startBridge(
        _ fixture: BridgeFixture, allowLoopback: Bool, ports: [UInt16] = [], maxTVs: Int = 10_000
    ) async throws -> BridgeService {
        let configuration = fixture.configuration {
            $0.discovery.searchInterval = 0
            $0.addTV.allowLoopback = allowLoopback
            $0.addTV.ports = ports
            $0.maxTVs = maxTVs
        }
        return try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
    }

    /// The error of a `tv/add` request (nil when it succeeded).
    func refusal(_ fixture: BridgeFixture, _ payload: String, action: String = "tv/add") async throws -> String? {
        let mark = await fixture.log.count
        try await fixture.publish("tv2mqtt/bridge/request/\(action)", payload)
        let response = await fixture.expectMessage("tv2mqtt/bridge/response/\(action)", after: mark)
        let answer = try JSONParser.parse(#require(response).payload)
        return answer["error"]?.stringValue
    }

    /// The response on `topic` that carries `transaction`.
    static func response(_ fixture: BridgeFixture, _ topic: String, transaction: Int, after mark: Int) async
        -> MQTTMessage?
    {
        let wanted = JSONValue.integer(Int64(transaction))
        return await fixture.log.waitFor(topic, after: mark) {
            (try? JSONParser.parse($0.payload))?["transaction"] == wanted
        }
    }

    @Test("by default a loopback address is refused before anything connects, also spelled as IPv6")
    func loopbackRefused() async throws {
        try await withBridgeFixture { fixture in
            let tv = try MisbehavingTV(host: "127.0.0.60", answer: Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
            defer { tv.stop() }
            try await startBridge(fixture, allowLoopback: false)
            for payload in [
                #"{"host":"127.0.0.60","kind":"roku"}"#, "roku:127.0.0.60", "::1",
            ] {
                let error = try await refusal(fixture, payload)
                #expect(
                    error?.contains("(loopback), not a TV on the network") == true,
                    "\(payload): \(String(describing: error))")
            }
            let text = try await refusal(fixture, "127.0.0.60", action: "tv/add_host")
            #expect(text?.contains("loopback") == true, "\(String(describing: text))")
            #expect(tv.requests == 0)
        }
    }

    @Test(
        "link-local, unspecified, multicast and broadcast addresses and ports no TV answers on are refused before anything connects"
    )
    func specialAddressesAndPortsRefused() async throws {
        try await withBridgeFixture { fixture in
            let tv = try MisbehavingTV(host: "127.0.0.61", answer: Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
            defer { tv.stop() }
            try await startBridge(fixture, allowLoopback: true)
            let cases = [
                ("169.254.169.254", "169.254.169.254 cannot be a TV's address: it is link-local"),
                ("[::ffff:169.254.169.254]:8060", "::ffff:169.254.169.254 cannot be a TV's address: it is special"),
                ("::ffff:127.0.0.61", "::ffff:127.0.0.61 cannot be a TV's address: it is special"),
                ("::127.0.0.61", "::127.0.0.61 cannot be a TV's address: it is special"),
                ("fe80::1%lo", "fe80::1%lo cannot be a TV's address: it is link-local"),
                ("0.0.0.0", "0.0.0.0 cannot be a TV's address: it is unspecified"),
                ("::", ":: cannot be a TV's address: it is unspecified"),
                ("224.0.0.1", "224.0.0.1 cannot be a TV's address: it is multicast"),
                ("ff02::1", "ff02::1 cannot be a TV's address: it is multicast"),
                ("255.255.255.255", "255.255.255.255 cannot be a TV's address: it is broadcast"),
                (
                    "127.0.0.61:\(tv.port)",
                    "port \(tv.port) is not one a TV answers on (tv/add probes 8060, 8001, 55000, 3001, 6466;"
                ),
                ("roku:127.0.0.61:8001", "port 8001 is not one a TV answers on (tv/add probes 8060;"),
                ("::1%nosuchinterface", "'nosuchinterface' after % is not a network interface of this machine"),
            ]
            for (payload, expected) in cases {
                let error = try await refusal(fixture, payload)
                #expect(error?.hasPrefix(expected) == true, "\(payload): \(String(describing: error))")
            }
            #expect(tv.requests == 0)
        }
    }

    @Test("what a device that is no TV answers never comes back in the response or an event")
    func noBodyEcho() async throws {
        try await withBridgeFixture { fixture in
            let secret = "SECRET-7f3a metadata token"
            let tv = try MisbehavingTV(
                host: "127.0.0.62",
                answer: Array("HTTP/1.1 404 Not Found\r\nContent-Length: \(secret.utf8.count)\r\n\r\n\(secret)".utf8))
            defer { tv.stop() }
            try await startBridge(fixture, allowLoopback: true, ports: [tv.port])
            let error = try await refusal(fixture, "roku:127.0.0.62:\(tv.port)")
            #expect(error == "the device at 127.0.0.62:\(tv.port) refused the probe", "\(String(describing: error))")
            #expect(tv.requests > 0, "the probe reached the device")
            let published = await fixture.log.all(prefix: "tv2mqtt/").map {
                String(decoding: $0.payload, as: UTF8.self)
            }
            let echoed = published.filter { $0.contains("SECRET") }
            #expect(echoed.isEmpty, "\(echoed)")
        }
    }

    @Test("at most 20 probes a minute: the 21st request is refused at once, and the window opens again at 60 s")
    func rateLimited() async throws {
        try await withBridgeFixture { fixture in
            let closed = try TCPListener.bind(host: "127.0.0.63", port: 0)
            let port = closed.address.port
            closed.close()  // nothing listens: each probe is refused at once
            // The bridge runs under a manual clock: the window's edge is exact virtual time.
            let clock = ManualClock()
            try await clock.run { try await startBridge(fixture, allowLoopback: true, ports: [port]) }
            var errors: [String] = []
            for _ in 0..<(AddTVGate.perWindow + 1) {
                errors.append(try await refusal(fixture, "roku:127.0.0.63:\(port)") ?? "")
            }
            let probed = errors.prefix(AddTVGate.perWindow).filter { $0.hasPrefix("no TV answered at 127.0.0.63") }
            #expect(probed.count == AddTVGate.perWindow, "\(errors)")
            let refused = "too many tv/add requests: at most 20 probes a minute; try again in a minute"
            #expect(errors.last == refused)
            await clock.advance(to: AddTVGate.window - .milliseconds(1))
            #expect(try await refusal(fixture, "roku:127.0.0.63:\(port)") == refused, "just before the window ends")
            await clock.advance(to: AddTVGate.window)
            let again = try await refusal(fixture, "roku:127.0.0.63:\(port)")
            #expect(again?.hasPrefix("no TV answered at 127.0.0.63") == true, "at 60 s: \(String(describing: again))")
        }
    }

    @Test("the rate is per requester: MQTT publishers who spent theirs leave the status page's clients theirs")
    func ratePerRequester() async throws {
        try await withBridgeFixture { fixture in
            let closed = try TCPListener.bind(host: "127.0.0.67", port: 0)
            let port = closed.address.port
            closed.close()  // nothing listens: each probe is refused at once
            let clock = ManualClock()
            let bridge = try await clock.run {
                try await startBridge(fixture, allowLoopback: true, ports: [port])
            }
            for _ in 0..<AddTVGate.perWindow { _ = try await refusal(fixture, "roku:127.0.0.67:\(port)") }
            let refused = "too many tv/add requests: at most 20 probes a minute; try again in a minute"
            #expect(try await refusal(fixture, "roku:127.0.0.67:\(port)") == refused, "MQTT spent its 20")
            let payload = Array("roku:127.0.0.67:\(port)".utf8)
            for address in ["192.0.2.1", "192.0.2.2"] {
                let result = await bridge.submitRequest("tv/add", payload: payload, from: .statusPage(address))
                guard case .failure(let error) = result else {
                    Issue.record("no TV listens there, yet \(address)'s tv/add succeeded")
                    continue
                }
                #expect(error.message.hasPrefix("no TV answered at 127.0.0.67"), "\(address): \(error.message)")
            }
            // Within the minute, MQTT's bucket stays spent.
            #expect(try await refusal(fixture, "roku:127.0.0.67:\(port)") == refused)
        }
    }

    @Test(
        "at most 4 probes at once: a fifth while four wait for a silent device is refused, before any of them answers")
    func concurrencyBounded() async throws {
        try await withBridgeFixture { fixture in
            // Accepts connections (the kernel's backlog) and never answers: each probe waits.
            let silent = try TCPListener.bind(host: "127.0.0.64", port: 0)
            defer { silent.close() }
            // The probes' request timeouts are virtual: the four wait until the test moves time.
            let clock = ManualClock()
            try await clock.run {
                try await startBridge(fixture, allowLoopback: true, ports: [silent.address.port])
            }
            let mark = await fixture.log.count
            for transaction in 1...5 {
                try await fixture.publish(
                    "tv2mqtt/bridge/request/tv/add",
                    #"{"host":"127.0.0.64","kind":"roku","port":\#(silent.address.port),"transaction":\#(transaction)}"#
                )
            }
            let topic = "tv2mqtt/bridge/response/tv/add"
            let firstResponse = await fixture.log.waitFor(topic, after: mark)
            let first = try #require(firstResponse)
            let answer = try JSONParser.parse(first.payload)
            #expect(answer["error"] == "4 tv/add probes are running; ask again once they have answered", "\(answer)")
            #expect(answer["transaction"] == 5, "the fifth is refused; the four still wait: \(answer)")
            // Past their timeout, the four answer that nothing did.
            let armed = await clock.waitForTimers { $0.filter { $0 == .seconds(5) }.count == 4 }
            #expect(armed, "each of the four waits for its 5 s request timeout: \(clock.pendingDeadlines)")
            await clock.advance(by: .seconds(5))
            for transaction in 1...4 {
                let response = await Self.response(fixture, topic, transaction: transaction, after: mark)
                let error = try response.map { try JSONParser.parse($0.payload)["error"]?.stringValue }
                #expect(
                    error??.hasPrefix("no TV answered at 127.0.0.64") == true,
                    "\(transaction): \(String(describing: error))")
            }
        }
    }

    @Test("max_tvs: a TV beyond it is refused with a clear error")
    func maxTVs() async throws {
        try await withRokus { fixture, rokus in
            let first = try await rokus.start("127.0.0.65")
            let second = try await rokus.start("127.0.0.66")
            try await startBridge(fixture, allowLoopback: true, ports: [first.port, second.port], maxTVs: 1)
            #expect(try await refusal(fixture, "roku:127.0.0.65:\(first.port)") == nil)
            let error = try await refusal(fixture, "roku:127.0.0.66:\(second.port)")
            #expect(
                error
                    == "the bridge keeps at most 1 TVs (max_tvs) and has 1; remove one with tv/remove or raise max_tvs")
            let secondAvailability = await fixture.log.all("tv2mqtt/\(SimulatedRokus.id(second))/availability")
            #expect(secondAvailability.isEmpty, "the second TV was not added")
        }
    }
}
