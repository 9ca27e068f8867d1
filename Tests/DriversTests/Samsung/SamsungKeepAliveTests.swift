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
            // A pong has 3 s (not the 1 s this test once used): in a loaded full run (load 6 on
            // two cores) an answered ping was once read after the 1 s deadline.
            let driver = SamsungDriver(
                description: rig.description, settings: rig.settings,
                options: SamsungDriverOptions(
                    securePort: relay.port, upnpPort: rig.simulator.portUPnP, approvalTimeout: .seconds(3),
                    keepAlive: .milliseconds(200), keepAliveTimeout: .seconds(3)))
            try await withDriver(driver) { driver, _ in
                try await driver.perform(.key(.shared(.home), repeat: 1))
                _ = try await rig.keys(atLeast: 1)
                // Several ping rounds: the simulated TV answers each, the channel stays.
                try await Task.sleep(for: .seconds(2))
                #expect(await driver.channel.isReady, "a TV that answers the pings lost its channel")

                relay.freeze()
                let dropped = await waitUntil(timeout: .seconds(30)) { await !driver.channel.isReady }
                #expect(dropped, "the channel to a TV that stopped answering was kept")

                relay.thaw()
                try await driver.perform(.key(.shared(.back), repeat: 1))
                let keys = try await rig.keys(atLeast: 2)
                #expect(keys == ["KEY_HOME Click", "KEY_RETURN Click"])
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
