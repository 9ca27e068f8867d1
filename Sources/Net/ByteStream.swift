/// A bidirectional byte stream: a TCP connection, or TLS over one.
///
/// One task may read while another writes. Concurrent writes are serialised whole (never
/// interleaved). Two concurrent reads are a programming error and fail with `.misuse`.
public protocol ByteStream: AnyObject, Sendable {
    /// Up to `maxBytes` bytes as soon as any are available; an empty array at end of stream.
    /// Throws `NetError.timedOut` when `deadline` passes first.
    func read(maxBytes: Int, deadline: ContinuousClock.Instant?) async throws -> [UInt8]
    /// Writes all of `bytes`, or throws.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws
    /// Closes both directions; pending operations fail with `NetError.closed`. Idempotent.
    func close()
    /// Whether `close()` was called or a fatal error was seen.
    var isClosed: Bool { get }
    /// "127.0.0.2:8060", for log lines and errors.
    var peerDescription: String { get }
}

extension ByteStream {
    public func read(maxBytes: Int = 16 * 1024) async throws -> [UInt8] {
        try await read(maxBytes: maxBytes, deadline: nil)
    }

    public func write(_ bytes: [UInt8]) async throws {
        try await write(bytes, deadline: nil)
    }
}
