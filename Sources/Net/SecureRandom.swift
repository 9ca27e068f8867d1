/// Cryptographically secure random bytes: WebSocket keys and masks, MQTT client-id suffixes,
/// backoff jitter. The stdlib's generator, which on Linux reads the kernel's CSPRNG
/// (`getrandom(2)`, else `/dev/urandom`).
///
/// Not OpenSSL's `RAND_bytes`: its first call starts OpenSSL's random generator and providers,
/// which brings about 3 MB of libcrypto into memory in a bridge that may never need TLS or
/// SHA-1 (Rokus over HTTP ECP, a plain `mqtt://` broker): a fifth of its idle RSS.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(count + 7)
        while out.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { out.append(contentsOf: $0) }
        }
        out.removeLast(out.count - count)
        return out
    }
}
