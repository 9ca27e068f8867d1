import Glibc
import TestSupport
import Testing

@testable import Net

/// `epoll_wait` hands the loop at most one batch of ready sockets at a time. After a late
/// wake-up (a busy machine, a long job on the loop's thread), more sockets than that may be
/// ready together, and their waits' deadlines past too: a socket whose data arrived before its
/// deadline must be read, not timed out because its readiness sat in the next batch.
@Suite("Event loop: more ready sockets than one epoll batch")
struct EventLoopReadyBatchTests {
    static let connections = 400

    /// 801 descriptors: it takes turns with the tests that count the process's descriptors.
    @Test("400 sockets that got data before their deadline are all read when the loop looks after it")
    func readyBeforeTheDeadlineIsRead() async throws {
        try await DescriptorTurns.run { try await fourHundredReadySockets() }
    }

    private func fourHundredReadySockets() async throws {
        let loop = EventLoop()
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0, loop: loop)
        defer { listener.close() }
        var clients: [TCPConnection] = []
        var servers: [TCPConnection] = []
        defer { for connection in clients + servers { connection.close() } }
        for _ in 0..<Self.connections {
            clients.append(try await TCPConnection.connect(to: listener.address, loop: loop))
            servers.append(try await listener.accept())
        }
        // The loop's thread is held for 6 s; the reads wait with a deadline 4 s away and their
        // data is sent from 1 s, leaving 3 s to send it (a busy machine took over 0.5 s).
        let start = ContinuousClock.now
        loop.schedule(at: start) { usleep(6_000_000) }
        let deadline = start + .seconds(4)
        let reads = clients.map { client in
            Task { () -> Bool in (try? await client.read(maxBytes: 1, deadline: deadline)) == [42] }
        }
        try await EventLoop.sleep(until: start + .seconds(1))
        for server in servers { try await server.write([42], deadline: nil) }
        #expect(ContinuousClock.now < deadline, "the data was sent after the deadline: the test proves nothing")
        var read = 0
        for task in reads where await task.value { read += 1 }
        #expect(read == Self.connections, "only \(read) of \(Self.connections) reads returned their byte")
    }
}
