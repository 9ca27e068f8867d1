import COpenSSL

/// Message digests from the system OpenSSL.
public enum Digest {
    /// SHA-1 (20 bytes): the WebSocket handshake (RFC 6455 §4.2.2) and the Roku ECP-2 challenge.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                _ = SHA1(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return out
    }

    /// SHA-256 (32 bytes): certificate fingerprints for pinning.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return out
    }

    /// Lowercase hex, e.g. for a fingerprint: "3f:a2:…" when `separator` is ":".
    public static func hex(_ bytes: [UInt8], separator: String = "") -> String {
        let digits = Array("0123456789abcdef")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: separator)
    }
}
