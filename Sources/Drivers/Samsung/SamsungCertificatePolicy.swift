/// What to do with the certificate a TV presented on 8002.
public enum SamsungCertificateDecision: Equatable, Sendable {
    /// No pin yet: trust this one from now on (trust on first use) and persist it.
    case pinFirstUse(String)
    /// The pinned certificate: go ahead.
    case matches
    /// A different certificate: someone may be in the middle. Do not send the token.
    case changed(pinned: String, seen: String)
}

/// Trust on first use for the TV's self-signed certificate (README › Security). Fingerprints are the
/// SHA-256 of the certificate in hex (the state file's `certificatePin`); they are compared
/// normalised (lowercase, without `:` separators), so `AB:CD…` and `abcd…` are the same pin.
public enum SamsungCertificatePolicy {
    public static func evaluate(pinned: String?, seen: String) -> SamsungCertificateDecision {
        let seenNormalized = normalize(seen)
        guard let pinned, !normalize(pinned).isEmpty else { return .pinFirstUse(seenNormalized) }
        return normalize(pinned) == seenNormalized
            ? .matches : .changed(pinned: normalize(pinned), seen: seenNormalized)
    }

    /// Lowercase hex without separators or spaces.
    public static func normalize(_ fingerprint: String) -> String {
        String(fingerprint.lowercased().filter { $0 != ":" && $0 != " " })
    }
}
