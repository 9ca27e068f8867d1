import Testing

@testable import Net

@Suite("UDP sockets")
struct UDPTests {
    @Test("a datagram sent on loopback arrives with its sender's address")
    func loopbackDatagram() async throws {
        let receiver = try UDPSocket.bind(host: "127.0.0.1")
        defer { receiver.close() }
        let sender = try UDPSocket.bind(host: "127.0.0.1")
        defer { sender.close() }
        try await sender.send(Array("M-SEARCH".utf8), to: receiver.localAddress)
        let (bytes, from) = try await receiver.receive(deadline: .now + .seconds(2))
        #expect(bytes == Array("M-SEARCH".utf8))
        #expect(from == sender.localAddress)
    }

    @Test("receive honours its deadline")
    func receiveDeadline() async throws {
        let receiver = try UDPSocket.bind(host: "127.0.0.1")
        defer { receiver.close() }
        await #expect {
            _ = try await receiver.receive(deadline: .now + .milliseconds(100))
        } throws: { error in
            (error as? NetError)?.kind == .timedOut
        }
    }

    @Test("two sockets can share a port with reuse")
    func reusePort() throws {
        let first = try UDPSocket.bind(host: "127.0.0.1", port: 0, reuse: true)
        defer { first.close() }
        let second = try UDPSocket.bind(host: "127.0.0.1", port: first.localAddress.port, reuse: true)
        defer { second.close() }
        #expect(second.localAddress.port == first.localAddress.port)
    }

    /// Linux, picking a port for a socket that already has SO_REUSEADDR, may hand out one that
    /// another such socket holds; the two then share datagrams (a simulated TV's Wake-on-LAN
    /// packet went to another test's socket). 600 picks among ~28,000 ports would collide about
    /// six times on average if ports were handed out that way.
    @Test("port 0 with reuse gets a port no other socket holds, and others can still join it")
    func reusePortZeroIsFresh() throws {
        var sockets: [UDPSocket] = []
        defer { for socket in sockets { socket.close() } }
        for _ in 0..<600 { sockets.append(try UDPSocket.bind(host: "0.0.0.0", port: 0, reuse: true)) }
        let ports = sockets.map(\.localAddress.port)
        let shared = ports.count - Set(ports).count
        #expect(shared == 0, "\(shared) of 600 ports handed out twice")
        let joined = try UDPSocket.bind(host: "0.0.0.0", port: ports[0], reuse: true)
        defer { joined.close() }
        #expect(joined.localAddress.port == ports[0])
    }

    @Test("an unknown interface name is a clear error")
    func unknownInterface() throws {
        let socket = try UDPSocket.bind(host: "0.0.0.0")
        defer { socket.close() }
        #expect(throws: NetError.self) { try socket.joinMulticast(group: "239.255.255.250", interface: "nosuchif0") }
        #expect(throws: NetError.self) { try socket.joinMulticast(group: "not-an-address") }
    }
}
