import Clients
import Net
import Wire

/// One authenticated ECP-2 WebSocket to a Roku (tv-protocols §B): requests with ids matched to
/// their responses (`WebSocketRPC`), each with a deadline.
///
/// Ordering: a caller's requests are written in the order it makes them (one task, one
/// WebSocket, one TCP stream), and `requests(_:)` pipelines a batch without waiting for each
/// answer, so a 30-character search costs one round trip, not thirty, and cannot be reordered
/// the way concurrent HTTP keypresses can. The driver's link task runs the session's one
/// reader (`read`), handing responses to `deliver(_:)` and keeping notifies for itself.
actor RokuECP2Session {
    /// Why a session could not be opened.
    enum OpenError: Error {
        /// The Roku answered the upgrade with an HTTP status (404/400 on firmware without
        /// ECP-2): not worth asking again soon.
        case refused(status: Int?, String)
        /// The challenge answer was refused: a key this firmware does not accept.
        case authentication(String)
        /// Anything transient: unreachable, timeout, a malformed or missing challenge.
        case failed(DriverError)
    }

    private typealias Ticket = WebSocketRPC<String, ECP2Message>.Ticket

    nonisolated let connection: WebSocketConnection
    let timeout: Duration
    private let rpc: WebSocketRPC<String, ECP2Message>
    private let generation: Int
    /// "1" went to `authenticate` (as the Roku app does).
    private var nextID = 2
    private var closedError: DriverError?

    /// Requests in flight at most in one `requests(_:)` batch: enough to hide the round trip,
    /// few enough that a TV that stalls is noticed by the first timeout.
    static let window = 32

    init(connection: WebSocketConnection, timeout: Duration) {
        self.connection = connection
        self.timeout = timeout
        let rpc = WebSocketRPC<String, ECP2Message>()
        generation = rpc.attach(connection)
        self.rpc = rpc
    }

    /// Sends one request and waits for its response; a non-2xx status is a `.rejected` error.
    func request(_ name: String, _ parameters: [String: String] = [:]) async throws(DriverError)
        -> ECP2Message
    {
        let ticket = try await send(name, parameters)
        return try await response(to: ticket, name: name)
    }

    /// Sends requests in order, pipelined (at most `window` unanswered), and returns when all
    /// have been answered; the first failure is thrown (later ones are abandoned).
    func requests(_ batch: [(name: String, parameters: [String: String])]) async throws(DriverError) {
        var inFlight: [(ticket: Ticket, name: String)] = []
        do {
            for (name, parameters) in batch {
                if inFlight.count >= Self.window {
                    let first = inFlight.removeFirst()
                    _ = try await response(to: first.ticket, name: first.name)
                }
                inFlight.append((try await send(name, parameters), name))
            }
            while !inFlight.isEmpty {
                let first = inFlight.removeFirst()
                _ = try await response(to: first.ticket, name: first.name)
            }
        } catch {
            for entry in inFlight { rpc.abandon(entry.ticket) }
            throw error
        }
    }

    /// A query answered with base64 XML (`query-active-app`…): the XML.
    func query(_ name: String) async throws(DriverError) -> [UInt8] {
        let answer = try await request(name)
        let content: [UInt8]?
        do {
            content = try answer.content()
        } catch {
            throw DriverError(.badResponse, "the Roku's \(name) answer: \(error.reason)")
        }
        guard let content else {
            throw DriverError(.badResponse, "the Roku answered \(name) without content")
        }
        return content
    }

    /// The session's one reader: hands each text message to `receive` until the connection
    /// ends; every request in flight fails then, and so does every later one.
    func read(_ receive: @Sendable (String) async -> Void) async {
        let ending = await rpc.read(generation) { await receive($0) }
        closedError = DriverError(.unreachable, "the ECP-2 session closed (\(ending.map { "\($0)" } ?? "closed"))")
    }

    /// A response the reader found: it answers the request with its id, if one still waits
    /// (a late one, after its timeout, answers nothing; ids are never reused).
    func deliver(_ message: ECP2Message) {
        guard case .response(_, let id) = message.kind else { return }
        rpc.answer(id, message, generation: generation)
    }

    private func send(_ name: String, _ parameters: [String: String]) async throws(DriverError) -> Ticket {
        if let closedError { throw closedError }
        let id = String(nextID)
        nextID += 1
        do {
            return try await rpc.send(
                ECP2Message.request(name, id: id, parameters).serialized(), awaiting: id, timeout: timeout)
        } catch {
            throw failure(error, name: name)
        }
    }

    private func response(to ticket: Ticket, name: String) async throws(DriverError) -> ECP2Message {
        let message: ECP2Message
        do {
            message = try await rpc.reply(to: ticket)
        } catch {
            throw failure(error, name: name)
        }
        guard message.isSuccess else {
            let status = message["status"] ?? "none"
            let detail = message["status-msg"].map { " (\(RokuCommandPlanner.printable($0)))" } ?? ""
            throw DriverError(.rejected, "the Roku refused ECP-2 \(name): status \(status)\(detail)")
        }
        return message
    }

    private func failure(_ error: RPCError, name: String) -> DriverError {
        switch error {
        case .timeout: DriverError(.timeout, "the Roku did not answer ECP-2 \(name) within \(timeout)")
        case .closed(let why): DriverError(.unreachable, "the ECP-2 session closed (\(why))")
        case .notConnected: closedError ?? DriverError(.unreachable, "the ECP-2 session closed")
        case .sendFailed(let why): DriverError(.unreachable, "the ECP-2 session closed: \(why)")
        case .duplicateID, .cancelled: DriverError(.unreachable, "ECP-2 \(name): \(error)")
        }
    }
}
