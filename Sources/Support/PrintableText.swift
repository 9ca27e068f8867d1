extension Unicode.Scalar {
    /// C0 controls, DEL, C1 controls and the Unicode line and paragraph separators: what may not
    /// stand in a name, a key or a log line as it is (each breaks a line, a terminal or a header).
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}

/// A peer- or user-supplied string as it may appear in a log line or an error message: control
/// characters written as `\u{…}`, at most 64 characters (scalars), `…` where it was cut.
public func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(64) {
        out += scalar.isControlCharacter ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
    }
    return text.unicodeScalars.count > 64 ? out + "…" : out
}
