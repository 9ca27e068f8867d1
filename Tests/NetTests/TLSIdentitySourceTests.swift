import Synchronization
import TestSupport
import Testing

@testable import Net

/// The bridge's own identity as text in a file (certificate then key), read back only when the
/// two belong together; made once however many ask at the same time, and asked again after a
/// failure; the fingerprint a pin mismatch names, read back from its error.
@Suite("TLS: the identity as a file's text, made once")
struct TLSIdentitySourceTests {
    @Test("the combined PEM reads back; garbage, a certificate alone and another's key do not")
    func combinedPEM() {
        let bridge = TestIdentities.bridge
        #expect(TLSIdentity(combinedPEM: bridge.combinedPEM) == bridge)
        #expect(TLSIdentity(combinedPEM: "garbage") == nil)
        #expect(TLSIdentity(combinedPEM: bridge.certificatePEM) == nil)
        #expect(TLSIdentity(combinedPEM: bridge.privateKeyPEM + bridge.certificatePEM) == nil, "key first")
        let mismatched = bridge.certificatePEM + TestIdentities.stranger.privateKeyPEM
        #expect(TLSIdentity(combinedPEM: mismatched) == nil, "another identity's key")
    }

    @Test("callers arriving together share one making; a failed making is tried again by the next caller")
    func madeOnce() async throws {
        let calls = Atomic(0)
        let source = TLSIdentitySource {
            if calls.add(1, ordering: .relaxed).newValue == 1 { throw NetError(.system, "make", "the first fails") }
            return TestIdentities.bridge
        }
        await #expect(throws: NetError.self) { try await source.identity() }
        let identities = try await withThrowingTaskGroup(of: TLSIdentity.self) { group in
            for _ in 0..<8 { group.addTask { try await source.identity() } }
            return try await group.reduce(into: [TLSIdentity]()) { $0.append($1) }
        }
        #expect(identities == Array(repeating: TestIdentities.bridge, count: 8))
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(try await TLSIdentitySource.fixed(TestIdentities.stranger).identity() == TestIdentities.stranger)
    }

    @Test("a pin mismatch's error names the fingerprint presented, which presentedFingerprint reads back")
    func presentedFingerprint() {
        let pinned = [UInt8](repeating: 0xAB, count: 32)
        let presented = (0..<32).map { UInt8($0) }
        var thrown: NetError?
        do {
            try TLSConnection.checkPin(pinned, presented: presented, operation: "TLS handshake with 127.0.0.1:6466")
        } catch {
            thrown = error
        }
        #expect(thrown?.presentedFingerprint == Digest.hex(presented))
        #expect(NetError(.tls, "handshake", "got 00").presentedFingerprint == nil, "not a pin mismatch")
    }
}
