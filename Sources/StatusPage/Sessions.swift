import Net
import Support
import Synchronization

/// The page's login sessions: a random id per login, held here (never derived from the
/// token, so it says nothing about it and ends at logout), at most `maxSessions`, each until
/// `sessionLifetime` has passed.
final class Sessions: Sendable {
    private let limits: StatusPageLimits
    /// Id → when it expires.
    private let sessions = Mutex([String: ContinuousClock.Instant]())

    init(limits: StatusPageLimits) {
        self.limits = limits
    }

    var count: Int { sessions.withLock { $0.count } }

    /// A new session of 256 random bits, as hex; the oldest goes when there are too many.
    func create() -> String {
        let id = Digest.hex(SecureRandom.bytes(32))
        let now = LoopClock.current.now
        sessions.withLock { sessions in
            sessions = sessions.filter { now < $0.value }
            while sessions.count >= limits.maxSessions, let oldest = sessions.min(by: { $0.value < $1.value }) {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[id] = now + limits.sessionLifetime
        }
        return id
    }

    /// Whether `id` is a session not yet expired. Compared with every session in constant
    /// time, so the time taken says nothing about how much of an id was right.
    func isValid(_ id: String) -> Bool {
        let now = LoopClock.current.now
        return sessions.withLock { sessions in
            var found = false
            for (candidate, expiry) in sessions where StatusRoutes.constantTimeEqual(candidate, id) {
                found = now < expiry
            }
            return found
        }
    }

    func remove(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }
}
