import Net
import Testing

@testable import StatusPage

/// The login sessions' bounds under a `ManualClock`: each expires at its lifetime, and past
/// the limit the oldest goes.
@Suite("Status page session store")
struct SessionsTests {
    @Test("a session passes until exactly its lifetime has passed")
    func expiry() async {
        let clock = ManualClock()
        let limits = StatusPageLimits()
        await clock.run {
            let sessions = Sessions(limits: limits)
            let id = sessions.create()
            #expect(id.count >= 32, "at least 128 random bits")
            #expect(sessions.isValid(id))
            await clock.advance(to: limits.sessionLifetime - .seconds(1))
            #expect(sessions.isValid(id))
            await clock.advance(to: limits.sessionLifetime)
            #expect(!sessions.isValid(id))
        }
    }

    @Test("past maxSessions the oldest session ends; remove ends one at once")
    func bounded() async {
        let clock = ManualClock()
        let limits = StatusPageLimits()
        await clock.run {
            let sessions = Sessions(limits: limits)
            var ids: [String] = []
            for _ in 0...limits.maxSessions {
                ids.append(sessions.create())
                await clock.advance(by: .seconds(1))
            }
            #expect(!sessions.isValid(ids[0]), "the oldest went")
            #expect(ids.dropFirst().allSatisfy(sessions.isValid))
            #expect(sessions.count == limits.maxSessions)
            sessions.remove(ids[1])
            #expect(!sessions.isValid(ids[1]))
        }
    }
}
