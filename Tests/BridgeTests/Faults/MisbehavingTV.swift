import Net
import Synchronization

/// A fake TV on loopback that answers every HTTP request with the same canned bytes (garbage
/// XML, an oversize body, a wrong Content-Length, broken chunking…) and then closes.
final class MisbehavingTV: Sendable {
    let listener: TCPListener
    let answer: [UInt8]
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let count = Mutex(0)

    var host: String { listener.address.ip }
    var port: UInt16 { listener.address.port }
    /// How many requests arrived.
    var requests: Int { count.withLock { $0 } }

    init(host: String, answer: [UInt8]) throws {
        listener = try TCPListener.bind(host: host, port: 0)
        self.answer = answer
        let accepting = Task { [self] in await acceptLoop() }
        task.withLock { $0 = accepting }
    }

    private func acceptLoop() async {
        while !Task.isCancelled {
            guard let connection = try? await listener.accept() else { return }
            Task { [self] in await serve(connection) }
        }
    }

    private func serve(_ connection: TCPConnection) async {
        defer { connection.close() }
        var head: [UInt8] = []
        while !head.ends(with: [13, 10, 13, 10]), head.count < 65_536 {
            guard let bytes = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(5)), !bytes.isEmpty
            else { return }
            head += bytes
        }
        count.withLock { $0 += 1 }
        try? await connection.write(answer, deadline: .now + .seconds(5))
        connection.shutdownWrite()
        try? await Task.sleep(for: .milliseconds(100))
    }

    func stop() {
        task.withLock { $0?.cancel() }
        listener.close()
    }
}

extension [UInt8] {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
