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

    @Test func twoHundredRespondersAnsweringWithinOneSecondAreAllFound() async throws {
        let port = try freeUDPPort()
        let hosts = (1...200).map { "127.1.0.\($0)" }
        let listener = try UDPSocket.bind(host: "0.0.0.0", port: port, reuse: true)
        var senders: [UDPSocket] = []
        defer {
            listener.close()
            for sender in senders { sender.close() }
        }
        for host in hosts { senders.append(try UDPSocket.bind(host: host, port: 0)) }
        let responders = senders
        // Answers every search: each responder after its own random delay within 1 s, in
        // time order from one task.
        let answering = Task {
            while let search = try? await listener.receive(), !Task.isCancelled {
                let plan = responders.map { (delay: Int.random(in: 0...1000), socket: $0) }.sorted {
                    $0.delay < $1.delay
                }
                let started = ContinuousClock.now
                for (delay, socket) in plan {
                    try? await Task.sleep(until: started + .milliseconds(delay), clock: .continuous)
                    let host = socket.localAddress.ip
                    let response = SSDPResponse(
                        searchTarget: Self.target, location: "http://\(host):8060/", usn: "uuid:roku:ecp:\(host)")
                    try? await socket.send(response.encode(), to: search.from)
                }
            }
        }
        defer { answering.cancel() }
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.255.255.255", port: port), interfaces: [],
            targets: [Self.target], logger: .disabled)
        let found = Mutex<Set<String>>([])
        try await discoverer.search(count: 1, mx: 1) { sighting in found.withLock { _ = $0.insert(sighting.address) } }
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
