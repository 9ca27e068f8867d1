import Clients
import Net
import Synchronization
import TestSupport
import Testing
import Wire

/// SSDP discovery of a network with many devices: every one that answers is found. Each
/// responder here is a bare UDP socket on its own loopback address (a simulator per device
/// would cost TCP listeners and tasks the point does not need).
@Suite(.serialized) struct SSDPLargeNetworkTests {
    static let target = "roku:ecp"

    /// 201 sockets: it takes turns with the tests that count the process's descriptors.
    @Test func twoHundredRespondersAnsweringTogetherAreAllFound() async throws {
        try await DescriptorTurns.run { try await twoHundredResponders() }
    }

    private func twoHundredResponders() async throws {
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
        // From the first search on, every responder answers, in a random order, again every
        // 250 ms until the search ends: on a loaded machine a burst can outrun a starved reader
        // and lose datagrams, and a real TV answers each of the repeated searches too. One
        // timer wake-up per round, as a busy test run may wake a task late.
        let answering = Task {
            let searcher: SocketAddress
            do {
                searcher = try await listener.receive().from
            } catch {
                return
            }
            while !Task.isCancelled {
                for socket in responders.shuffled() {
                    let host = socket.localAddress.ip
                    let response = SSDPResponse(
                        searchTarget: Self.target, location: "http://\(host):8060/", usn: "uuid:roku:ecp:\(host)")
                    try? await socket.send(response.encode(), to: searcher)
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer { answering.cancel() }
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.255.255.255", port: port), interfaces: [],
            targets: [Self.target], logger: .disabled)
        let found = Mutex<Set<String>>([])
        // The search runs under a clock that moves only when every answer is in: however
        // starved the reader, its window does not close on it.
        let clock = ManualClock()
        let searching = Task {
            try await clock.run {
                try await discoverer.search(count: 2, mx: 3) { sighting in
                    found.withLock { _ = $0.insert(sighting.address) }
                }
            }
        }
        let hangBound = ContinuousClock.now + .seconds(30)
        while found.withLock({ $0.count }) < hosts.count, ContinuousClock.now < hangBound {
            try await Task.sleep(for: .milliseconds(20))
        }
        await clock.advance(to: .seconds(1 + 3 + 1))  // the second search at 1 s; the window ends at 1 s + MX + 1 s
        try await searching.value
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
