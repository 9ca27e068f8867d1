import Clients
import Net
import Wire

/// One authenticated ECP-2 WebSocket to a Roku (tv-protocols §B): requests with ids matched to
/// their responses, each with a deadline.
///
/// Ordering: a caller's requests are written in the order it makes them (one task, one
/// WebSocket, one TCP stream), and `requests(_:)` pipelines a batch without waiting for each
/// answer, so a 30-character search costs one round trip, not thirty, and cannot be reordered
/// the way concurrent HTTP keypresses can. Messages are read by the driver's link task, which
/// hands responses to `deliver(_:)` and keeps notifies for itself.
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

    private enum Slot {
        case pending
        case waiting(CheckedContinuation<Result<ECP2Message, DriverError>, Never>)
        case answered(Result<ECP2Message, DriverError>)
    }

    nonisolated let connection: WebSocketConnection
    let timeout: Duration
    /// "1" went to `authenticate` (as the Roku app does).
    private var nextID = 2
    private var slots: [String: Slot] = [:]
    private var closedError: DriverError?

    /// Requests in flight at most in one `requests(_:)` batch: enough to hide the round trip,
    /// few enough that a TV that stalls is noticed by the first timeout.
    static let window = 32

    init(connection: WebSocketConnection, timeout: Duration) {
        self.connection = connection
        self.timeout = timeout
    }

    /// Sends one request and waits for its response; a non-2xx status is a `.rejected` error.
    func request(_ name: String, _ parameters: [String: String] = [:]) async throws(DriverError)
        -> ECP2Message
    {
        let id = try await send(name, parameters)
        return try await response(to: id, name: name)
    }

    /// Sends requests in order, pipelined (at most `window` unanswered), and returns when all
    /// have been answered; the first failure is thrown (later ones are abandoned).
    func requests(_ batch: [(name: String, parameters: [String: String])]) async throws(DriverError) {
        var inFlight: [(id: String, name: String)] = []
        do {
            for (name, parameters) in batch {
                if inFlight.count >= Self.window {
                    let first = inFlight.removeFirst()
                    _ = try await response(to: first.id, name: first.name)
                }
                inFlight.append((try await send(name, parameters), name))
            }
            while !inFlight.isEmpty {
                let first = inFlight.removeFirst()
                _ = try await response(to: first.id, name: first.name)
            }
        } catch {
            for entry in inFlight { abandon(entry.id) }
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

    /// A response read by the link task.
    func deliver(_ message: ECP2Message) {
        guard case .response(_, let id) = message.kind else { return }
        finish(id, .success(message))
    }

    /// The connection ended: every request in flight fails, and so does every later one.
    func fail(_ error: DriverError) {
        closedError = error
        for id in Array(slots.keys) { finish(id, .failure(error)) }
    }

    // MARK: slots

    private func send(_ name: String, _ parameters: [String: String]) async throws(DriverError)
        -> String
    {
        if let closedError { throw closedError }
        let id = String(nextID)
        nextID += 1
        slots[id] = .pending
        let deadline = LoopClock.current.now + timeout
        do {
            try await connection.send(text: ECP2Message.request(name, id: id, parameters).serialized())
        } catch {
            abandon(id)
            throw DriverError(.unreachable, "the ECP-2 session closed: \(error.message)")
        }
        // The timer is armed once the request is out; its deadline counts from before the send.
        // An answer (or the session's end) that came during the send needs no timer.
        if case .pending? = slots[id] {
            LoopClock.current.startTask(at: deadline) { [weak self] in await self?.expire(id, name: name)
            }
        }
        return id
    }

    private func response(to id: String, name: String) async throws(DriverError) -> ECP2Message {
        let result: Result<ECP2Message, DriverError>
        switch slots[id] {
        case .answered(let answer)?:
            slots[id] = nil
            result = answer
        case .pending?:
            result = await withCheckedContinuation { slots[id] = .waiting($0) }
        case .waiting?, nil:
            throw DriverError(.badResponse, "ECP-2 request \(id) is not awaited twice")
        }
        let message = try result.get()
        guard message.isSuccess else {
            let status = message["status"] ?? "none"
            let detail = message["status-msg"].map { " (\(RokuCommandPlanner.printable($0)))" } ?? ""
            throw DriverError(.rejected, "the Roku refused ECP-2 \(name): status \(status)\(detail)")
        }
        return message
    }

    /// Fails a request still unanswered at its deadline (`finish` leaves an answered one alone;
    /// ids are never reused).
    private func expire(_ id: String, name: String) {
        finish(
            id,
            .failure(
                DriverError(.timeout, "the Roku did not answer ECP-2 \(name) within \(timeout)")
            ))
    }

    private func finish(_ id: String, _ result: Result<ECP2Message, DriverError>) {
        switch slots[id] {
        case .pending?:
            slots[id] = .answered(result)
        case .waiting(let continuation)?:
            slots[id] = nil
            continuation.resume(returning: result)
        case .answered?, nil:
            return  // late (after a timeout) or unknown: nobody waits for it
        }
    }

    private func abandon(_ id: String) {
        if case .waiting(let continuation)? = slots[id] {
            continuation.resume(returning: .failure(DriverError(.unreachable, "abandoned")))
        }
        slots[id] = nil
    }
}
