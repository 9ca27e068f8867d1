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

    @Test("an unknown interface name is a clear error")
    func unknownInterface() throws {
        let socket = try UDPSocket.bind(host: "0.0.0.0")
        defer { socket.close() }
        #expect(throws: NetError.self) { try socket.joinMulticast(group: "239.255.255.250", interface: "nosuchif0") }
        #expect(throws: NetError.self) { try socket.joinMulticast(group: "not-an-address") }
    }
}
