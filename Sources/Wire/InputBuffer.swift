/// Bytes received from a stream and not yet consumed by a decoder.
///
/// Streaming decoders append what the socket delivered, look at `readable`, and consume
/// whole frames. Consumed bytes are dropped lazily (when they are the larger half), so
/// consuming is O(1) amortised rather than shifting the array on every frame.
public struct InputBuffer: Sendable {
    private var storage: [UInt8] = []
    private var readIndex = 0

    public init() {}

    /// Number of bytes not yet consumed.
    public var count: Int { storage.count - readIndex }
    public var isEmpty: Bool { count == 0 }

    /// The unconsumed bytes. Indices are those of the underlying storage: use
    /// `readable.startIndex` as the origin.
    public var readable: ArraySlice<UInt8> { storage[readIndex...] }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    /// Drops the first `n` unconsumed bytes.
    public mutating func consume(_ n: Int) {
        precondition(n >= 0 && n <= count, "consume beyond the buffered bytes")
        readIndex += n
        if readIndex == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 64 * 1024)
            readIndex = 0
        } else if readIndex > 4096 && readIndex * 2 > storage.count {
            storage.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    /// Removes and returns the first `n` unconsumed bytes.
    public mutating func take(_ n: Int) -> [UInt8] {
        let chunk = Array(storage[readIndex..<readIndex + n])
        consume(n)
        return chunk
    }

    /// Removes and returns everything not yet consumed.
    public mutating func takeAll() -> [UInt8] {
        take(count)
    }
}
