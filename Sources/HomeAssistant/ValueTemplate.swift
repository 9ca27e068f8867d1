import MQTTInterface

/// Jinja `value_template`s for the readings of `EntityDescription`.
///
/// Home Assistant renders them with `value_json` = the parsed payload. Rules they keep, so
/// Home Assistant logs nothing for any state document tv2mqtt publishes (the state document leaves
/// unknown fields out, and `input` may be null):
/// - `value_json is mapping` comes first: on a payload that is not a JSON object (an empty
///   retained message while a TV is removed) `value_json` is undefined, and reading a member
///   of an undefined value is a template error.
/// - A missing member is only ever tested (`is string`, `is boolean`, `is number`, `in`),
///   never printed or used as a condition, which is what makes Home Assistant's
///   `LoggingUndefined` log "Template variable warning".
/// - Anything unusable renders `None`, which switch, select, number, sensor and binary_sensor
///   all take as "unknown" (sensors from Home Assistant 2024.10 on). Entity style's sensors,
///   for older releases, render `unknown` instead: the state string Home Assistant shows for
///   a value it does not know, so the entity reads the same on every release.
public enum ValueTemplate {
    /// What Home Assistant MQTT takes as "no value" (its `PAYLOAD_NONE`).
    public static let payloadNone = "None"
    /// Home Assistant's unknown state (`STATE_UNKNOWN`), for text sensors before 2024.10.
    public static let unknownState = "unknown"

    /// The template for `reading` with `options` (the resolved options of an `.option` reading),
    /// rendering `unknown` for anything unusable. nil for `.payload` readings, which need no template.
    public static func make(
        _ reading: EntityDescription.Reading, options: [String] = [], unknown: String = payloadNone
    ) -> String? {
        let otherwise = " else " + stringLiteral(unknown) + " }}"
        switch reading {
        case .text(let field):
            let value = "value_json." + field
            return "{{ \(value)[:\(StateDocument.maxStringLength)] if value_json is mapping and \(value) is string"
                + otherwise
        case .onOff(let field):
            let value = "value_json." + field
            return "{{ ('ON' if \(value) else 'OFF') if value_json is mapping and \(value) is boolean" + otherwise
        case .number(let field):
            let value = "value_json." + field
            return
                "{{ \(value) if value_json is mapping and \(value) is number and \(value) is not boolean" + otherwise
        case .option(let field, _):
            let value = "value_json." + field
            return "{{ \(value) if value_json is mapping and \(value) in \(listLiteral(options))" + otherwise
        case .cleared:
            return "{{ '' }}"
        case .payload:
            return nil
        }
    }

    /// A Jinja list of string literals: `['Netflix','MLB.TV®']`.
    public static func listLiteral(_ values: [String]) -> String {
        "[" + values.map(stringLiteral).joined(separator: ",") + "]"
    }

    /// A single-quoted Jinja string literal for any text.
    ///
    /// Jinja decodes a literal with Python's `unicode-escape` after `backslashreplace`, so
    /// `\xHH` escapes and non-ASCII characters both come back exactly. Escaped: the quote, the
    /// backslash, control characters, and braces and `%` (so no app name can ever look like a
    /// `{{`, `{%` or `}}` delimiter to a reader or a lexer).
    public static func stringLiteral(_ text: String) -> String {
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x27, 0x5C, 0x7B, 0x7D, 0x25, 0x00..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
