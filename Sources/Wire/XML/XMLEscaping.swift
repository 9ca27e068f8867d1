/// Escaping for text written into XML: SOAP bodies and the simulated TVs' answers.
///
/// Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF and CR, and
/// U+FFFE/U+FFFF, XML 1.0 §2.2) have no escape; they are replaced by U+FFFD so that the
/// output is always well-formed.
public enum XMLEscaping {
    /// Escapes character data: `&`, `<`, `>` (so `]]>` cannot appear, XML 1.0 §2.4), and CR
    /// as `&#13;` so that it survives line-end normalisation (XML 1.0 §2.11).
    public static func escapeText(_ string: String) -> String {
        escape(string, attribute: false)
    }

    /// Escapes an attribute value for either quote style: `&`, `<`, `>`, `"`, `'`, and
    /// tab, LF and CR as character references so that attribute-value normalisation
    /// (XML 1.0 §3.3.3) does not turn them into spaces.
    public static func escapeAttribute(_ string: String) -> String {
        escape(string, attribute: true)
    }

    private static func needsWork(_ byte: UInt8, attribute: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D, 0xEF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "'"), 0x09, 0x0A: return attribute
        default: return byte < 0x20
        }
    }

    private static func escape(_ string: String, attribute: Bool) -> String {
        guard string.utf8.contains(where: { needsWork($0, attribute: attribute) }) else { return string }
        var output = ""
        output.reserveCapacity(string.utf8.count + 16)
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x26: output += "&amp;"
            case 0x3C: output += "&lt;"
            case 0x3E: output += "&gt;"
            case 0x0D: output += "&#13;"
            case 0x22 where attribute: output += "&quot;"
            case 0x27 where attribute: output += "&apos;"
            case 0x09 where attribute: output += "&#9;"
            case 0x0A where attribute: output += "&#10;"
            case 0x09, 0x0A: output.unicodeScalars.append(scalar)
            case 0..<0x20, 0xFFFE, 0xFFFF: output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
