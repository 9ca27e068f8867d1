import Clients
import Net
import Synchronization
import Testing
import Wire

/// SSDP discovery of a network with many devices: every one that answers is found. Each
/// responder here is a bare UDP socket on its own loopback address (a simulator per device
/// would cost TCP listeners and tasks the point does not need).
@Suite(.serialized) struct SSDPLargeNetworkTests {
    static let target = "roku:ecp"

    @Test func twoHundredRespondersAnsweringEverySecondAreAllFound() async throws {
        let hosts = (1...200).map { "127.1.0.\($0)" }
        let listener = try UDPSocket.bind(host: "0.0.0.0", port: 0, reuse: true)
        let port = listener.localAddress.port
        var senders: [UDPSocket] = []
        defer {
            listener.close()
            for sender in senders { sender.close() }
        }
        // Each responder on its own address and the search port (as the simulators bind): no
        // ephemeral ports taken from the tests running beside this one.
        for host in hosts { senders.append(try UDPSocket.bind(host: host, port: port, reuse: true)) }
        let responders = senders
        // From the first search on, every responder answers within each second, again and again
        // until the search ends: on a loaded machine a burst can outrun the reader and lose
        // datagrams, and a real TV answers each of the repeated searches too.
        let answering = Task {
            let searcher: SocketAddress
            do {
                searcher = try await listener.receive().from
            } catch {
                return
            }
            while !Task.isCancelled {
                // Each responder's delay is random within 1 s; they are sent in ten 100 ms
                // batches (few timer wake-ups: a busy test run may wake a task late).
                var batches = [[UDPSocket]](repeating: [], count: 10)
                for socket in responders { batches[Int.random(in: 0..<10)].append(socket) }
                let started = ContinuousClock.now
                for (index, batch) in batches.enumerated() {
                    try? await Task.sleep(until: started + .milliseconds(100 * index), clock: .continuous)
                    for socket in batch {
                        let host = socket.localAddress.ip
                        let response = SSDPResponse(
                            searchTarget: Self.target, location: "http://\(host):8060/", usn: "uuid:roku:ecp:\(host)")
                        try? await socket.send(response.encode(), to: searcher)
                    }
                }
                try? await Task.sleep(until: started + .seconds(1), clock: .continuous)
            }
        }
        defer { answering.cancel() }
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.255.255.255", port: port), interfaces: [],
            targets: [Self.target], logger: .disabled)
        let found = Mutex<Set<String>>([])
        // MX 3: every responder answers within each second; the rest is slack for a loaded run.
        try await discoverer.search(count: 2, mx: 3) { sighting in found.withLock { _ = $0.insert(sighting.address) } }
        let addresses = found.withLock { $0 }
        #expect(addresses.count == hosts.count)
        #expect(addresses == Set(hosts))
    }

    @Test func theSearchSocketGetsABigReceiveBuffer() throws {
        let socket = try UDPSocket.bind(host: "127.0.0.1", port: 0)
        defer { socket.close() }
        let before = socket.receiveBufferSize
        socket.setReceiveBufferSize(SSDPDiscoverer.receiveBufferBytes)
        // The kernel doubles what was asked, capped at net.core.rmem_max (4 MB on Debian).
        #expect(socket.receiveBufferSize > before)
    }
}
