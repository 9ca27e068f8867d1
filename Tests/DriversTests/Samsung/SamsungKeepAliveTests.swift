import Harness
import Net
import Synchronization
import TVModel
import TVSimulators
import Testing

@testable import Drivers

/// Issue 13, item 11: the Samsung remote channel is kept alive with WebSocket pings and
/// dropped when the TV stops answering, so the next command reconnects instead of being
/// written into a dead socket. The TV "stops answering" behind a TCP relay that holds every
/// byte while frozen, as a TV that lost power or Wi-Fi does (the socket stays open, nothing
/// comes back).
@Suite("Samsung remote channel keep-alive")
struct SamsungKeepAliveTests {
    @Test("a healthy TV keeps the channel through the pings; a silent one loses it; the next command reconnects")
    func silentTVDropped() async throws {
        try await withSamsungRig { rig in
            let relay = try FreezableRelay(host: rig.simulator.host, to: rig.simulator.portWSS)
            defer { relay.close() }
            let driver = SamsungDriver(
                description: rig.description, settings: rig.settings, samsung: rig.samsung,
                options: SamsungDriverOptions(
                    securePort: relay.port, upnpPort: rig.simulator.portUPnP, approvalTimeout: .seconds(3),
                    keepAlive: .milliseconds(200), keepAliveTimeout: .seconds(3)))
            // The driver runs on a clock that moves only when told: pings, their timeout and
            // the prompt's come at their virtual instants, however busy the machine.
            let clock = ManualClock()
            try await clock.run {
                try await withDriver(driver) { driver, _ in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                    _ = try await rig.keys(atLeast: 1)
                    // A ping at each 200 ms of silence; its pong arms the next, so waiting for
                    // the next ping's timer is waiting for the pong.
                    for round in 1...5 {
                        let due = Duration.milliseconds(200 * round)
                        #expect(await clock.waitForTimer(at: due), "ping \(round): \(clock.pendingDeadlines)")
                        await clock.advance(to: due)
                    }
                    #expect(await clock.waitForTimer(at: .milliseconds(1200)), "the 5th pong")
                    #expect(await driver.channel.isReady, "a TV that answers the pings lost its channel")

                    relay.freeze()
                    // The 6th ping at 1.2 s goes unanswered: the channel is dropped 3 s later.
                    await clock.advance(to: .milliseconds(1200))
                    #expect(await clock.waitForTimer(at: .milliseconds(4200)), "the 6th ping's timeout")
                    await clock.advance(to: .milliseconds(4200) - .nanoseconds(1))
                    #expect(await driver.channel.isReady, "dropped before the ping's timeout")
                    await clock.advance(to: .milliseconds(4200))
                    let dropped = await waitUntil { await !driver.channel.isReady }
                    #expect(dropped, "the channel to a TV that stopped answering was kept")

                    relay.thaw()
                    try await driver.perform(.key(.shared(.back), repeat: 1))
                    let keys = try await rig.keys(atLeast: 2)
                    #expect(keys == ["KEY_HOME Click", "KEY_RETURN Click"])
                }
            }
        }
    }
}

/// A TCP relay on loopback whose traffic can be held: while frozen, every byte read from
/// either side waits (nothing reaches the other side, nothing is lost or closed).
final class FreezableRelay: Sendable {
    private let listener: TCPListener
    private let frozen = Atomic(false)
    private let connections = Mutex<[TCPConnection]>([])
    private let acceptor = Mutex<Task<Void, Never>?>(nil)

    var port: UInt16 { listener.address.port }

    init(host: String, to targetPort: UInt16) throws {
        listener = try TCPListener.bind(host: host, port: 0)
        let task = Task { [self] in await acceptLoop(host: host, targetPort: targetPort) }
        acceptor.withLock { $0 = task }
    }

    func freeze() { frozen.store(true, ordering: .relaxed) }
    func thaw() { frozen.store(false, ordering: .relaxed) }

    func close() {
        acceptor.withLock { $0?.cancel() }
        listener.close()
        for connection in connections.withLock({ $0 }) { connection.close() }
    }

    private func acceptLoop(host: String, targetPort: UInt16) async {
        while !Task.isCancelled {
            guard let client = try? await listener.accept() else { return }
            guard let server = try? await TCPConnection.connect(host: host, port: targetPort) else {
                client.close()
                continue
            }
            connections.withLock { $0 += [client, server] }
            Task { await self.relay(from: client, to: server) }
            Task { await self.relay(from: server, to: client) }
        }
    }

    private func relay(from source: TCPConnection, to destination: TCPConnection) async {
        defer {
            source.close()
            destination.close()
        }
        while let bytes = try? await source.read(maxBytes: 64 * 1024, deadline: nil), !bytes.isEmpty {
            while frozen.load(ordering: .relaxed) {
                if destination.isClosed { return }
                try? await Task.sleep(for: .milliseconds(20))
            }
            guard (try? await destination.write(bytes, deadline: .now + .seconds(5))) != nil else { return }
        }
    }
}
