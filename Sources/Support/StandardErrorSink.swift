import Glibc
import Synchronization

/// How a record becomes a line.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-22T10:00:00.123Z info  bridge: connected to broker host=127.0.0.1`
    case text
    /// One JSON object per line: `{"time":…,"level":"info","label":"bridge","msg":"…","host":"…"}`
    case json

    public func render(_ record: LogRecord) -> String {
        switch self {
        case .text:
            // Control characters are escaped: a newline in a value someone sent (a topic, a name)
            // must not start a forged log line.
            var line =
                "\(isoTimestamp(record.time)) \(record.level.name.padding(7)) \(record.label): \(escapingControls(record.message))"
            for (key, value) in record.metadata {
                let quoted = value.isEmpty || value.unicodeScalars.contains { $0 == " " || $0.isControlCharacter }
                line += " \(key)=\(quoted ? jsonQuoted(value) : value)"
            }
            return line
        case .json:
            var line = "{\"time\":\(jsonQuoted(isoTimestamp(record.time))),\"level\":\(jsonQuoted(record.level.name))"
            line += ",\"label\":\(jsonQuoted(record.label)),\"msg\":\(jsonQuoted(record.message))"
            for (key, value) in record.metadata { line += ",\(jsonQuoted(key)):\(jsonQuoted(value))" }
            return line + "}"
        }
    }
}

/// Writes each record as one line to standard error, whole lines at a time.
public final class StandardErrorSink: LogSink {
    public let format: LogFormat
    private let lock = Mutex(())

    public init(format: LogFormat) { self.format = format }

    public func write(_ record: LogRecord) {
        let line = format.render(record) + "\n"
        lock.withLock { _ in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    break
                }
                offset += written
            }
            bytes.removeAll()
        }
    }
}

/// `text` with its control characters written as JSON-style escapes (`\n`, `\r`, `\u0000`).
private func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: \.isControlCharacter) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        guard scalar.isControlCharacter else {
            out.unicodeScalars.append(scalar)
            continue
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
    return out
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
