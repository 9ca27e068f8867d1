import Net
import Synchronization

/// Requests matched to their replies by id over one WebSocket connection at a time: the one
/// copy of what the LG, Samsung and Roku sessions each need (Sources/README.md › Waiting).
///
/// The owner attaches a connection (a new *generation*), runs its one reader (`read`), which
/// hands every text message to the owner, and the owner answers the requests it recognises
/// (`answer(_:_:generation:)`). A reply read from an older connection never answers a request
/// of the current one, and a connection that ends or is detached fails every request still
/// waiting on it with `.closed`. A reply that arrives before its requester waits is kept;
/// each wait is bounded by its request's deadline (`withDeadline`), after which a late reply
/// answers nothing. Requests an owner answers itself (`reserve`) outlive connections.
///
/// ```swift
/// let rpc = WebSocketRPC<String, String>()
/// let generation = rpc.attach(connection)
/// Task { await rpc.read(generation) { text in rpc.answer(idOf(text), text, generation: generation) } }
/// let reply = try await rpc.call(#"{"id":"1","ask":"volume"}"#, awaiting: "1", timeout: .seconds(5))
/// ```
public final class WebSocketRPC<ID: Hashable & Sendable, Reply: Sendable>: Sendable {
    /// A request sent (or reserved): what `reply(to:)` waits on.
    public struct Ticket: Sendable, Equatable {
        public let id: ID
        let serial: UInt64
        /// When the wait gives up; nil for a request its owner always answers.
        public let deadline: ContinuousClock.Instant?
    }

    struct State {
        var connection: WebSocketConnection?
        var generation = 0
        var slots = RPCSlots<ID, Reply>()
    }

    let state = Mutex(State())

    public init() {}

    /// The attached connection, nil between connections.
    public var connection: WebSocketConnection? { state.withLock { $0.connection } }
    public var isConnected: Bool { connection != nil }
    /// Which connection is current: bumped by every attach and detach.
    public var generation: Int { state.withLock { $0.generation } }

    /// Makes `connection` the current one, detaching the previous (its requests fail); returns
    /// its generation, for `read` and `answer`.
    @discardableResult
    public func attach(_ connection: WebSocketConnection) -> Int {
        let replaced = RPCError.closed("another connection replaced it")
        let (generation, woken) = state.withLock { state in
            let woken = Self.end(&state, replaced)
            state.connection = connection
            return (state.generation, woken)
        }
        for waiter in woken { waiter.resume(returning: .failure(replaced)) }
        return generation
    }

    /// Forgets the current connection (the caller closes it, and its reader's messages no
    /// longer count): every request waiting on it fails with `.closed` and `reason`.
    @discardableResult
    public func detach(_ reason: String = "the connection closed") -> WebSocketConnection? {
        let error = RPCError.closed(reason)
        let (closing, woken) = state.withLock { state in (state.connection, Self.end(&state, error)) }
        for waiter in woken { waiter.resume(returning: .failure(error)) }
        return closing
    }

    /// Ends the current generation (the next has no connection until an attach), settling its
    /// requests with `error`: the waiters to resume with it.
    private static func end(_ state: inout State, _ error: RPCError) -> [RPCSlots<ID, Reply>.Waiter] {
        let ending = state.generation
        state.generation += 1
        state.connection = nil
        return state.slots.settleAll(.failure(error)) { $0 == ending }
    }

    /// The one reader of `generation`'s connection: hands each text message to `receive` while
    /// that connection is current (binary ones are ignored) until it ends. Returns how it ended
    /// when it was still current then (its waiters have failed with `.closed`, the close reason
    /// their message); nil when it was detached or replaced first, or the reading task was
    /// cancelled.
    public func read(
        _ generation: Int, isolation: isolated (any Actor)? = #isolation, _ receive: (String) async -> Void
    ) async -> WebSocketCloseReason? {
        guard let connection = current(generation) else { return nil }
        var ending: WebSocketCloseReason?
        reading: for await message in connection.incoming {
            switch message {
            case .text(let text):
                if current(generation) != nil { await receive(text) }
            case .binary: continue
            case .closed(let reason):
                ending = reason
                break reading
            }
        }
        let error = RPCError.closed(ending.map { "\($0)" } ?? "the connection's reader stopped")
        let (wasCurrent, woken) = state.withLock { state -> (Bool, [RPCSlots<ID, Reply>.Waiter]) in
            guard state.generation == generation else { return (false, []) }
            return (true, Self.end(&state, error))
        }
        for waiter in woken { waiter.resume(returning: .failure(error)) }
        return wasCurrent ? ending : nil
    }

    private func current(_ generation: Int) -> WebSocketConnection? {
        state.withLock { $0.generation == generation ? $0.connection : nil }
    }

    /// Sends `text` on the current connection, awaiting no reply.
    public func send(text: String) async throws(RPCError) {
        guard let connection else { throw .notConnected }
        do {
            try await connection.send(text: text)
        } catch {
            throw .sendFailed(error.message)
        }
    }
}
