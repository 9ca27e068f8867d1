import CSystem
import Glibc
import Support
import Synchronization

/// The I/O event loop: one thread running `epoll_wait` over every socket, resuming the
/// tasks that wait for readiness.
///
/// Sockets are non-blocking and registered once, edge-triggered. An operation first tries
/// its system call; only on `EAGAIN` does it suspend here. Readiness that arrives while no
/// task waits is remembered (`readReady`/`writeReady`) and consumed by the next waiter, so
/// an edge between a failed call and the registration is never lost (the netpoller scheme
/// of Go's runtime). A thousand idle TVs cost a thousand file descriptors, not threads.
///
/// Deadlines live in a min-heap on the loop; `epoll_wait` sleeps until the nearest one, and
/// a new, earlier deadline wakes the loop through an eventfd.
public final class EventLoop: Sendable {
    /// The process-wide loop, started on first use.
    public static let shared = EventLoop()

    enum Direction { case read, write }

    private let epollFD: Int32
    private let wakeFD: Int32
    private let state = Mutex(LoopState())
    private static let wakeToken: UInt64 = 0

    /// A loop of its own, for tests that must hold its thread; everything else uses `shared`.
    init() {
        epollFD = csys_epoll_create()
        wakeFD = csys_eventfd()
        precondition(epollFD >= 0 && wakeFD >= 0, "cannot create epoll or eventfd: \(errno)")
        precondition(csys_epoll_add(epollFD, wakeFD, Self.wakeToken) == 0, "cannot watch the eventfd")
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                let loop = Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue()
                loop.run()
                return nil
            }, box)
        precondition(created == 0, "cannot start the event loop thread")
        pthread_detach(thread)
    }

    // MARK: registration

    /// Watches `fd`; returns the token that names it in later calls.
    func register(_ fd: Int32) throws(NetError) -> UInt64 {
        let token = state.withLock { state in
            state.nextToken += 1
            state.registrations[state.nextToken] = Registration()
            return state.nextToken
        }
        if csys_epoll_add(epollFD, fd, token) != 0 {
            let code = errno
            _ = state.withLock { $0.registrations.removeValue(forKey: token) }
            throw NetError.errno(code, "watch socket")
        }
        return token
    }

    /// Stops watching `fd` and fails any task still waiting on it. Call before `close(fd)`.
    func deregister(_ token: UInt64, fd: Int32) {
        _ = csys_epoll_del(epollFD, fd)
        let waiters = state.withLock { state -> [Waiter] in
            guard let registration = state.registrations.removeValue(forKey: token) else { return [] }
            return [registration.readWaiter, registration.writeWaiter].compactMap { $0 }
        }
        for waiter in waiters {
            waiter.continuation.resume(
                throwing: NetError(.closed, waiter.operation, "closed while waiting"))
        }
    }

    // MARK: waiting

    /// Suspends until the socket named by `token` is ready in `direction`, the deadline
    /// passes (`NetError.timedOut`), the task is cancelled (`CancellationError`), or the
    /// socket is closed (`NetError.closed`).
    func wait(
        _ token: UInt64, _ direction: Direction, deadline: ContinuousClock.Instant?,
        operation: @autoclosure () -> String
    ) async throws {
        let ticket = WaitTicket()
        let operationText = operation()
        let clock = LoopClock.current
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation {
                (continuation: UnsafeContinuation<Void, any Error>) in
                // A manual clock's timer is armed after the lock is released: arming it may wake a
                // test waiting for it (`ManualClock.waitForTimer`), and that resumption enqueues a
                // job on this loop, which takes this lock.
                var manualExpiry: UInt64?
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if ticket.cancelled { return .failure(CancellationError()) }
                    guard var registration = state.registrations[token] else {
                        return .failure(NetError(.closed, operationText, "socket is closed"))
                    }
                    if registration.consumeReady(direction) {
                        state.registrations[token] = registration
                        return .success(())
                    }
                    if registration.waiter(direction) != nil {
                        return .failure(NetError(.misuse, operationText, "another task is already waiting"))
                    }
                    state.nextWaiterID += 1
                    let waiter = Waiter(
                        id: state.nextWaiterID, continuation: continuation, operation: operationText)
                    registration.setWaiter(direction, waiter)
                    state.registrations[token] = registration
                    ticket.registered = (token, direction, waiter.id)
                    if let deadline {
                        if clock.isManual {
                            manualExpiry = waiter.id
                        } else {
                            state.timers.push(
                                Timer(
                                    deadline: deadline,
                                    action: .expire(token: token, direction: direction, waiterID: waiter.id)))
                            state.noteDeadline(deadline)
                        }
                    }
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    if let waiterID = manualExpiry, let deadline {
                        // Fired after the waiter was resumed, it finds no waiter of that id.
                        clock.schedule(at: deadline) { [self] in
                            expire(token: token, direction: direction, waiterID: waiterID)
                        }
                    }
                    wakeIfNeeded()
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                ticket.cancelled = true
                guard let (token, direction, id) = ticket.registered,
                    var registration = state.registrations[token],
                    let waiter = registration.waiter(direction), waiter.id == id
                else { return nil }
                registration.setWaiter(direction, nil)
                state.registrations[token] = registration
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Fails the waiter `waiterID` with `NetError.timedOut`, unless it was resumed already: a
    /// deadline on a manual clock (`LoopClock`), which the loop's own timers do not see.
    private func expire(token: UInt64, direction: Direction, waiterID: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            state.takeWaiter(token: token, direction: direction, waiterID: waiterID)
        }
        guard let waiter else { return }
        waiter.continuation.resume(throwing: NetError(.timedOut, waiter.operation, "timed out"))
    }

    private func wakeIfNeeded() {
        let needed = state.withLock { state in
            defer { state.wakeNeeded = false }
            return state.wakeNeeded
        }
        if needed {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
    }

    // MARK: jobs

    /// Queues a Swift job to run on the loop's thread (the global executor's sink, see
    /// `EventLoop+GlobalExecutor.swift`), after `delay` if given. Wakes the loop only when it
    /// sleeps in `epoll_wait`: a job queued by a job already running on the loop costs no
    /// system call.
    func enqueue(job: SwiftJob, after delay: Duration? = nil) {
        state.withLock { state in
            if let delay {
                let deadline = ContinuousClock.now + delay
                state.timers.push(Timer(deadline: deadline, action: .run(job)))
                state.noteDeadline(deadline)
            } else {
                state.jobs.append(job)
                if state.sleeping {
                    state.sleeping = false
                    state.wakeNeeded = true
                }
            }
        }
        wakeIfNeeded()
    }

    // MARK: timers

    /// Calls `action` on the loop's thread once `deadline` has passed. There is no cancelling:
    /// an action that may no longer matter checks for itself (see `EventLoop.sleep`, `Wakeup`).
    ///
    /// Why not `Task.sleep` or Dispatch's `asyncAfter`: on Swift 6.3 both arm a timer on
    /// Dispatch's own thread, which wakes it and then a worker thread to resume the task, three
    /// threads for one deadline; the loop already sleeps in `epoll_wait` until its next one.
    public func schedule(
        at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void
    ) {
        state.withLock { state in
            state.timers.push(Timer(deadline: deadline, action: .call(action)))
            state.noteDeadline(deadline)
        }
        wakeIfNeeded()
    }

    // MARK: the loop thread

    /// The loop thread's name (`/proc/<pid>/task/<tid>/comm`, `top -H`).
    public static let threadName = "event-loop"

    private func run() {
        csys_name_thread(Self.threadName)
        let capacity = 256
        var tokens = [UInt64](repeating: 0, count: capacity)
        var masks = [UInt32](repeating: 0, count: capacity)
        var ready: [(UnsafeContinuation<Void, any Error>, Result<Void, any Error>)] = []
        var batch: [SwiftJob] = []
        var calls: [@Sendable () -> Void] = []
        while true {
            let timeout = state.withLock { state -> Int32 in
                state.plannedWake = state.timers.top?.deadline
                if !state.jobs.isEmpty { return 0 }  // look at the sockets, then run them
                state.sleeping = true
                guard let next = state.plannedWake else { return -1 }
                return Self.milliseconds(until: next)
            }
            var count = csys_epoll_wait(epollFD, &tokens, &masks, Int32(capacity), timeout)
            if count < 0 && errno != EINTR { fatalError("epoll_wait failed: \(errno)") }
            state.withLock { state in
                state.sleeping = false
                state.wakeNeeded = false
                take(count, tokens, masks, into: &state, ready: &ready)
            }
            // A full batch may leave sockets ready in epoll: take them all before any deadline
            // is checked, so that a socket ready before its deadline is never timed out.
            while count == capacity {
                count = csys_epoll_wait(epollFD, &tokens, &masks, Int32(capacity), 0)
                state.withLock { state in take(count, tokens, masks, into: &state, ready: &ready) }
            }
            state.withLock { state in
                let now = ContinuousClock.now
                while let timer = state.timers.top, timer.deadline <= now {
                    state.timers.pop()
                    switch timer.action {
                    case .run(let job):
                        state.jobs.append(job)
                    case .call(let action):
                        calls.append(action)
                    case .expire(let token, let direction, let waiterID):
                        guard
                            let waiter = state.takeWaiter(token: token, direction: direction, waiterID: waiterID)
                        else { continue }
                        ready.append(
                            (waiter.continuation, .failure(NetError(.timedOut, waiter.operation, "timed out"))))
                    }
                }
            }
            // With the loop as the global executor, each resume queues its task's job below;
            // otherwise it goes to Swift's thread pool.
            for (continuation, result) in ready { continuation.resume(with: result) }
            ready.removeAll(keepingCapacity: true)
            for action in calls { action() }
            calls.removeAll(keepingCapacity: true)
            state.withLock { swap(&batch, &$0.jobs) }
            for job in batch { csys_run_job(job.pointer) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Signals the waiters of the `count` sockets `epoll_wait` reported (the eventfd only wakes).
    private func take(
        _ count: Int32, _ tokens: [UInt64], _ masks: [UInt32], into state: inout LoopState,
        ready: inout [(UnsafeContinuation<Void, any Error>, Result<Void, any Error>)]
    ) {
        let readMask = CSYS_EPOLLIN | CSYS_EPOLLHUP | CSYS_EPOLLERR | CSYS_EPOLLRDHUP
        let writeMask = CSYS_EPOLLOUT | CSYS_EPOLLHUP | CSYS_EPOLLERR
        for index in 0..<max(0, Int(count)) {
            let token = tokens[index]
            if token == Self.wakeToken {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, 8)
                continue
            }
            guard var registration = state.registrations[token] else { continue }
            if masks[index] & readMask != 0, let waiter = registration.signal(.read) {
                ready.append((waiter.continuation, .success(())))
            }
            if masks[index] & writeMask != 0, let waiter = registration.signal(.write) {
                ready.append((waiter.continuation, .success(())))
            }
            state.registrations[token] = registration
        }
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        if remaining <= .zero { return 0 }
        return Int32(clamping: remaining.millisecondsRoundedUp)
    }
}

/// Per-socket readiness and the (at most one) waiting task per direction.
struct Registration {
    var readReady = false
    var writeReady = false
    var readWaiter: Waiter?
    var writeWaiter: Waiter?

    func waiter(_ direction: EventLoop.Direction) -> Waiter? {
        direction == .read ? readWaiter : writeWaiter
    }

    mutating func setWaiter(_ direction: EventLoop.Direction, _ waiter: Waiter?) {
        if direction == .read { readWaiter = waiter } else { writeWaiter = waiter }
    }

    /// Takes remembered readiness, if any.
    mutating func consumeReady(_ direction: EventLoop.Direction) -> Bool {
        if direction == .read {
            defer { readReady = false }
            return readReady
        }
        defer { writeReady = false }
        return writeReady
    }

    /// Readiness arrived: hand it to the waiter, or remember it.
    mutating func signal(_ direction: EventLoop.Direction) -> Waiter? {
        if let waiter = waiter(direction) {
            setWaiter(direction, nil)
            return waiter
        }
        if direction == .read { readReady = true } else { writeReady = true }
        return nil
    }
}

struct Waiter {
    let id: UInt64
    let continuation: UnsafeContinuation<Void, any Error>
    let operation: String
}

/// Links a wait to its cancellation handler. Only touched under the loop's lock.
final class WaitTicket: @unchecked Sendable {
    var cancelled = false
    var registered: (UInt64, EventLoop.Direction, UInt64)?
}

struct LoopState {
    var registrations: [UInt64: Registration] = [:]
    var nextToken: UInt64 = 0
    var nextWaiterID: UInt64 = 0
    var timers = TimerHeap()
    var plannedWake: ContinuousClock.Instant?
    var wakeNeeded = false
    /// Swift jobs to run on the loop's thread, in order.
    var jobs: [SwiftJob] = []
    /// The loop is in (or about to enter) `epoll_wait`; only then does new work need the eventfd.
    var sleeping = false

    /// Removes and returns the waiter `waiterID`, if it still waits.
    mutating func takeWaiter(token: UInt64, direction: EventLoop.Direction, waiterID: UInt64)
        -> Waiter?
    {
        guard var registration = registrations[token], let waiter = registration.waiter(direction),
            waiter.id == waiterID
        else { return nil }
        registration.setWaiter(direction, nil)
        registrations[token] = registration
        return waiter
    }

    /// A new deadline: wake the sleeping loop if it is sooner than the one it sleeps toward.
    mutating func noteDeadline(_ deadline: ContinuousClock.Instant) {
        if sleeping && (plannedWake.map { deadline < $0 } ?? true) {
            sleeping = false
            wakeNeeded = true
        }
    }
}
