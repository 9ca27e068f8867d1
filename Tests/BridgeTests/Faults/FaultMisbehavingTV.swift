import Net
import Synchronization

/// A "TV" on a real socket that never lets a request finish (issue 7, fault 3): written here,
/// not in TVSimulators, because no simulator should ever be this broken.
final class FaultMisbehavingTV: Sendable {
    enum Behaviour: Sendable {
        /// Accepts connections, reads whatever comes, never answers.
        case silent
        /// Answers every request with a valid HTTP response, one byte every `interval`.
        case drip(interval: Duration)
    }

    private struct State {
        var accepted = 0
        var firstAccepted: ContinuousClock.Instant?
        var open: [Int: TCPConnection] = [:]
        var tasks: [Int: Task<Void, Never>] = [:]
        var acceptor: Task<Void, Never>?
    }

    let listener: TCPListener
    let behaviour: Behaviour
    private let state = Mutex(State())

    var host: String { listener.address.ip }
    var port: UInt16 { listener.address.port }
    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.accepted } }
    /// When the first connection was accepted (nil: none yet).
    var firstAccepted: ContinuousClock.Instant? { state.withLock { $0.firstAccepted } }
    /// Connections the bridge still holds open, waiting for an answer.
    var hanging: Int { state.withLock { $0.open.count } }

    /// A complete device-info answer; it never gets far at a byte a second.
    static let response: [UInt8] = {
        let body = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<device-info><udn>drip</udn></device-info>\n"
        return Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }()

    private init(listener: TCPListener, behaviour: Behaviour) {
        self.listener = listener
        self.behaviour = behaviour
    }

    static func start(host: String, port: UInt16 = 0, _ behaviour: Behaviour) throws -> FaultMisbehavingTV {
        let tv = FaultMisbehavingTV(listener: try TCPListener.bind(host: host, port: port), behaviour: behaviour)
        let acceptor = Task { await tv.acceptLoop() }
        tv.state.withLock { $0.acceptor = acceptor }
        return tv
    }

    private func acceptLoop() async {
        while !Task.isCancelled {
            guard let connection = try? await listener.accept() else { return }
            state.withLock { state in
                state.accepted += 1
                if state.firstAccepted == nil { state.firstAccepted = .now }
                let number = state.accepted
                state.open[number] = connection
                state.tasks[number] = Task { await self.serve(connection, number: number) }
            }
        }
    }

    private func serve(_ connection: TCPConnection, number: Int) async {
        switch behaviour {
        case .silent:
            // Read and drop until the bridge gives up and closes.
            while let bytes = try? await connection.read(maxBytes: 4096, deadline: nil), !bytes.isEmpty {}
        case .drip(let interval):
            // The request first (it comes in one piece), so that a close is seen as one.
            _ = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(5))
            for byte in Self.response {
                if Task.isCancelled { break }
                guard (try? await connection.write([byte], deadline: .now + .seconds(1))) != nil,
                    !connection.isPeerClosed
                else { break }
                try? await Task.sleep(for: interval)
            }
        }
        connection.close()
        _ = state.withLock { $0.open.removeValue(forKey: number) }
    }

    func stop() async {
        let (acceptor, tasks, open) = state.withLock { ($0.acceptor, Array($0.tasks.values), Array($0.open.values)) }
        acceptor?.cancel()
        listener.close()
        for task in tasks { task.cancel() }
        for connection in open { connection.close() }
        await acceptor?.value
        for task in tasks { await task.value }
    }
}
