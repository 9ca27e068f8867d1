import Glibc

/// Writes one line to stderr with a plain `write(2)` (the C `stderr` global is not
/// concurrency-safe in Swift 6, and simulator messages must not interleave mid-line).
public func writeStandardError(_ line: String) {
    var bytes = Array(line.utf8)
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
