/// The `Sec-WebSocket-Key` / `Sec-WebSocket-Accept` pair of the opening handshake (RFC 6455 §4.1, §4.2.2).
///
/// Pure: the random bytes and the SHA-1 function are passed in (`Net.SecureRandom.bytes(16)` and
/// `Net.Digest.sha1` in production), so `Wire` stays free of randomness and OpenSSL.
public enum WebSocketKey {
    /// The GUID every server appends to the key before hashing (§1.3, §4.2.2).
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A client's `Sec-WebSocket-Key`: the base64 of a 16-byte random nonce (§4.1 item 7).
    ///
    /// - Parameter randomBytes: exactly 16 bytes, freshly chosen for this connection; any other
    ///   count is a programming error and traps.
    public static func make(randomBytes: [UInt8]) -> String {
        precondition(randomBytes.count == 16, "a Sec-WebSocket-Key nonce is 16 bytes")
        return Base64.encode(randomBytes)
    }

    /// The `Sec-WebSocket-Accept` value a server must return for `key`:
    /// base64(SHA-1(key ‖ GUID)) (§4.2.2 item 5.4). A client compares it with what it received (§4.1).
    public static func accept(for key: String, sha1: ([UInt8]) -> [UInt8]) -> String {
        Base64.encode(sha1(Array((key + guid).utf8)))
    }

    /// Whether a `Sec-WebSocket-Key` received by a server is well formed: base64 that decodes to
    /// exactly 16 bytes (§4.2.1 item 5). Surrounding whitespace is ignored, as for any header value.
    public static func isValid(_ key: String) -> Bool {
        let trimmed = key.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        guard let decoded = try? Base64.decode(bytes: Array(trimmed.reversed())) else { return false }
        return decoded.count == 16
    }
}
