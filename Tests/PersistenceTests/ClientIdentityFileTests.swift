import Glibc
import Harness
import Net
import TestSupport
import Testing

@testable import Persistence

/// The bridge's client certificate in the state directory: made on first use with mode 0600,
/// then read back the same by a later process (a TV paired with it stays paired); a file that is
/// not a certificate and its key is refused, naming itself, and left as it was.
@Suite("State directory: the bridge's client certificate")
struct ClientIdentityFileTests {
    @Test("made once, 0600, in a state directory it creates; the next process reads the same identity")
    func madeThenKept() async throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        defer { directory.remove() }
        let state = directory.file("state")
        let made = try await StateStore.clientIdentity(directory: state).identity()
        let path = state + "/" + StateStore.identityFileName
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(FileText.read(path) == made.combinedPEM)
        #expect(made.rsaPublicKey?.modulus.count == 256, "RSA-2048")
        let again = try await StateStore.clientIdentity(directory: state).identity()
        #expect(again == made, "a later process pairs as the same client")
    }

    @Test("a file that is not a certificate and its key is refused, named, and not replaced")
    func corruptFile() async throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        defer { directory.remove() }
        let state = directory.file("state")
        mkdir(state, 0o700)
        let path = state + "/" + StateStore.identityFileName
        try FileText.write(TestIdentities.bridge.certificatePEM + "truncated", to: path, mode: 0o600)
        var refusal = ""
        do {
            _ = try await StateStore.clientIdentity(directory: state).identity()
        } catch {
            refusal = "\(error)"
        }
        #expect(refusal.contains(path) && refusal.contains("move it aside"), "\(refusal)")
        #expect(FileText.read(path) == TestIdentities.bridge.certificatePEM + "truncated")
    }
}
