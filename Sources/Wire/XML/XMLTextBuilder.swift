/// Collects an element's text segments; the `String` is made once, when the element ends.
///
/// The common case, one segment needing no decoding, never copies the bytes twice.
struct XMLTextBuilder {
    private var plain: Range<Int>? = nil
    private var buffer: [UInt8]? = nil

    mutating func append(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) {
        guard !range.isEmpty else { return }
        if buffer == nil && plain == nil {
            plain = range
            return
        }
        var collected = take(bytes)
        collected.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        buffer = collected
    }

    mutating func append(_ decoded: [UInt8], of bytes: UnsafeBufferPointer<UInt8>) {
        guard !decoded.isEmpty else { return }
        guard plain != nil || buffer != nil else {
            buffer = decoded
            return
        }
        var collected = take(bytes)
        collected.append(contentsOf: decoded)
        buffer = collected
    }

    /// The bytes collected so far, with a pending plain segment copied out of the input.
    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if let plain {
            self.plain = nil
            var collected: [UInt8] = []
            collected.reserveCapacity(plain.count * 4)
            collected.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain]))
            return collected
        }
        let collected = buffer ?? []
        buffer = nil
        return collected
    }

    func build(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let buffer { return String(decoding: buffer, as: UTF8.self) }
        if let plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes[plain]), as: UTF8.self) }
        return ""
    }
}
