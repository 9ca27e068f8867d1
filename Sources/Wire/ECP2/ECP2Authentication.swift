/// The ECP-2 challenge answer (tv-protocols §B.2; seed 000_5eaa8a3bcf1556ae, Roam
/// `ECPProtocol.swift`): `base64(SHA1(utf8(challenge) ‖ utf8(transform(key))))`.
///
/// The key is the constant the Roku mobile app embeds, published in the Roam write-up and in
/// roku-audio-receiver. Each uppercase hex digit v of it becomes the hex digit of
/// `(15 − v + 9) & 15`; dashes stay. SHA-1 is a parameter (as in `WebSocketKey.accept`) so
/// this module stays free of OpenSSL; callers pass `Digest.sha1`.
public enum ECP2Authentication {
    public static let key = "95E610D0-7C29-44EF-FB0F-97F1FCE4C297"

    /// `key` after the per-digit transform ("F3A278B8-1C6F-44A9-9D89-F1979CA4C6F1").
    public static let transformedKey = transform(key)

    static func transform(_ key: String) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(
            key.map { character -> Character in
                guard let value = digits.firstIndex(of: character) else { return character }
                return digits[(15 - value + 9) & 15]
            })
    }

    /// The `param-response` for a `param-challenge`. `key` is the untransformed constant
    /// (another one only in tests: a simulated TV that expects a different key).
    public static func response(
        challenge: String, key: String = ECP2Authentication.key, sha1: ([UInt8]) -> [UInt8]
    ) -> String {
        let transformed = key == ECP2Authentication.key ? transformedKey : transform(key)
        return Base64.encode(sha1(Array(challenge.utf8) + Array(transformed.utf8)))
    }
}
