/// The requests of a `WebSocketRPC` that wait for a reply, by id: the bookkeeping alone, kept
/// in the owner's `Mutex`. A reply that comes before its waiter is kept in the slot, so an
/// answer racing the `await` is never lost; continuations are handed back to be resumed outside
/// the lock.
struct RPCSlots<ID: Hashable & Sendable, Reply: Sendable>: Sendable {
    typealias Outcome = Result<Reply, RPCError>
    typealias Waiter = CheckedContinuation<Outcome, Never>

    enum Phase {
        case reserved
        case waiting(Waiter)
        case answered(Outcome)
    }

    struct Slot {
        /// Tells this request from an earlier one with the same id (a timed-out exchange).
        let serial: UInt64
        /// The connection it went out on; nil for a request answered by its owner, which
        /// outlives connections.
        let generation: Int?
        var phase: Phase
    }

    private var slots: [ID: Slot] = [:]
    private var nextSerial: UInt64 = 0

    /// Holds a slot for `id`; a second request with an id still waiting is refused.
    mutating func reserve(_ id: ID, generation: Int?) throws(RPCError) -> UInt64 {
        guard slots[id] == nil else {
            throw .duplicateID
        }
        nextSerial &+= 1
        slots[id] = Slot(serial: nextSerial, generation: generation, phase: .reserved)
        return nextSerial
    }

    /// A request on `id` still wants its reply (reserved or waiting, not answered).
    func isAwaited(_ id: ID) -> Bool {
        guard let slot = slots[id] else { return false }
        if case .answered = slot.phase { return false }
        return true
    }

    func isAnswered(_ id: ID, serial: UInt64) -> Bool {
        guard let slot = slots[id], slot.serial == serial, case .answered = slot.phase else { return false }
        return true
    }

    /// Settles the request waiting on `id` (only on `generation`'s connection, when given).
    /// Nil when nothing waits for it (never asked, answered already, given up); otherwise
    /// the waiter to resume, if one is suspended.
    mutating func answer(_ id: ID, _ outcome: Outcome, generation: Int?) -> Waiter?? {
        guard var slot = slots[id], generation == nil || slot.generation == generation else { return nil }
        switch slot.phase {
        case .reserved:
            slot.phase = .answered(outcome)
            slots[id] = slot
            return .some(nil)
        case .waiting(let waiter):
            slots[id] = nil
            return .some(waiter)
        case .answered:
            return nil
        }
    }

    /// The outcome of an answered request, taking its slot; nil while it waits.
    mutating func take(_ id: ID, serial: UInt64) -> Outcome? {
        guard let slot = slots[id], slot.serial == serial, case .answered(let outcome) = slot.phase else {
            return nil
        }
        slots[id] = nil
        return outcome
    }

    /// Suspends `waiter` on its slot, or gives the outcome to resume it with at once.
    mutating func wait(_ id: ID, serial: UInt64, _ waiter: Waiter) -> Outcome? {
        guard var slot = slots[id], slot.serial == serial else {
            return .failure(.cancelled)
        }
        switch slot.phase {
        case .reserved:
            slot.phase = .waiting(waiter)
            slots[id] = slot
            return nil
        case .answered(let outcome):
            slots[id] = nil
            return outcome
        case .waiting:
            return .failure(.duplicateID)
        }
    }

    /// Forgets the request; its waiter, if suspended, to resume.
    mutating func remove(_ id: ID, serial: UInt64) -> Waiter? {
        guard let slot = slots[id], slot.serial == serial else { return nil }
        slots[id] = nil
        if case .waiting(let waiter) = slot.phase { return waiter }
        return nil
    }

    /// Settles every request `matching` its generation with `outcome`; the waiters to resume.
    mutating func settleAll(_ outcome: Outcome, matching: (Int?) -> Bool) -> [Waiter] {
        var woken: [Waiter] = []
        for (id, slot) in slots where matching(slot.generation) {
            switch slot.phase {
            case .reserved: slots[id]?.phase = .answered(outcome)
            case .waiting(let waiter):
                slots[id] = nil
                woken.append(waiter)
            case .answered: continue
            }
        }
        return woken
    }
}
