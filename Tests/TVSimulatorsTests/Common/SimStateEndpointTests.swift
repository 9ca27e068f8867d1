import Synchronization
import Testing
import Wire

@testable import TVSimulators

/// The routing and `/sim/state` plumbing every simulated TV shares, apart from any vendor: a
/// stand-in state of one integer field.
@Suite struct SimStateEndpointTests {
    /// A stand-in TV: `{"level": n}` with n in 0...10, and whether a change ran its afterwards.
    final class Stand: Sendable {
        let level = Mutex(0)
        let afterwardsRan = Mutex(0)
        var ranAfterwards: Int { afterwardsRan.withLock { $0 } }
        var currentLevel: Int { level.withLock { $0 } }

        var endpoint: SimStateEndpoint {
            SimStateEndpoint(current: { [self] in ["level": .integer(Int64(level.withLock { $0 }))] }) {
                [self] change throws(SimulatorError) in
                guard case .integer(let value)? = change.objectValue?["level"], (0...10).contains(value) else {
                    throw SimulatorError("'level' must be an integer in 0...10")
                }
                level.withLock { $0 = Int(value) }
                return { [self] in afterwardsRan.withLock { $0 += 1 } }
            }
        }

        func answer(_ method: String, _ target: String, body: String = "") -> SimHTTPReply {
            let request = HTTPRequest(method: method, target: target, body: Array(body.utf8))
            return SimRouting.answer(request, simState: endpoint.answer) { segments in
                segments == ["hello"] ? SimHTTPReply(SimResponse.plain(200, "hi")) : nil
            }
        }
    }

    static func text(_ reply: SimHTTPReply) -> String { String(decoding: reply.response.body, as: UTF8.self) }

    @Test func getAnswersTheStateAsJSON() {
        let stand = Stand()
        let reply = stand.answer("GET", "/sim/state")
        #expect(reply.response.status == 200)
        #expect(reply.response.headers["Content-Type"] == "application/json")
        #expect(Self.text(reply) == #"{"level":0}"#)
        #expect(reply.afterwards == nil)
    }

    @Test func postAppliesAndAnswersTheNewStateThenRunsAfterwards() {
        let stand = Stand()
        let reply = stand.answer("POST", "/sim/state", body: #"{"level":7}"#)
        #expect(reply.response.status == 200)
        #expect(Self.text(reply) == #"{"level":7}"#)
        // The effect waits until the answer is written.
        #expect(stand.ranAfterwards == 0)
        reply.afterwards?()
        #expect(stand.ranAfterwards == 1)
    }

    @Test func badJSONAndRefusedChangesAre400AndChangeNothing() {
        let stand = Stand()
        let broken = stand.answer("POST", "/sim/state", body: "{level")
        #expect(broken.response.status == 400)
        #expect(Self.text(broken).hasPrefix("invalid JSON: "))
        let refused = stand.answer("POST", "/sim/state", body: #"{"level":11}"#)
        #expect(refused.response.status == 400)
        #expect(Self.text(refused) == "'level' must be an integer in 0...10")
        #expect(refused.afterwards == nil)
        #expect(stand.currentLevel == 0)
    }

    @Test func otherMethodsAre405() {
        let reply = Stand().answer("DELETE", "/sim/state")
        #expect(reply.response.status == 405)
        #expect(Self.text(reply) == "Method Not Allowed")
    }

    @Test func routingSendsOtherPathsToTheVendorAnd404sTheRest() {
        let stand = Stand()
        let known = stand.answer("GET", "/hello")
        #expect(Self.text(known) == "hi")
        let unknown = stand.answer("GET", "/sim/other")
        #expect(unknown.response.status == 404)
        #expect(Self.text(unknown) == "Not Found")
        let malformed = stand.answer("GET", "/%zz")
        #expect(malformed.response.status == 400)
        #expect(Self.text(malformed).hasPrefix("Bad Request: "))
    }
}
