import Net
import TestSupport
import Testing

@testable import Wire

@Suite("WebSocket handshake key", .cpuBound)
struct WebSocketKeyTests {
    @Test("the accept value for the RFC 6455 §1.3 sample key is s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    func rfcSampleAccept() {
        #expect(
            WebSocketKey.accept(for: "dGhlIHNhbXBsZSBub25jZQ==", sha1: Digest.sha1) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a key is the base64 of the 16 random bytes given")
    func makeKey() throws {
        let nonce = Array("the sample nonce".utf8)
        let key = WebSocketKey.make(randomBytes: nonce)
        #expect(key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(try Base64.decode(key) == nonce)
        #expect(WebSocketKey.make(randomBytes: [UInt8](repeating: 0, count: 16)).count == 24)
    }

    @Test("a server accepts only keys that decode to 16 bytes")
    func keyValidation() {
        #expect(WebSocketKey.isValid("dGhlIHNhbXBsZSBub25jZQ=="))
        #expect(WebSocketKey.isValid("  dGhlIHNhbXBsZSBub25jZQ==\t"))
        #expect(!WebSocketKey.isValid("dGhlIHNhbXBsZSBub25jZQ"))
        #expect(!WebSocketKey.isValid("aGVsbG8="))
        #expect(!WebSocketKey.isValid(""))
        #expect(!WebSocketKey.isValid("dGhlIHNhbXBsZSBub25j ZQ=="))
    }
}
