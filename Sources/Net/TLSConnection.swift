import Support
import Synchronization

/// TLS over a TCP connection: the `TLSEngine` transform driven by the connection's I/O.
///
/// One task may read while another writes. Every OpenSSL call runs under `engine`'s lock;
/// the ciphertext it produces is queued there in order and sent by whichever task holds
/// `flushLock`, so records always leave in the order OpenSSL made them.
public final class TLSConnection: ByteStream {
    private let transport: TCPConnection
    private let engine: Mutex<EngineBox>
    private let flushLock = AsyncLock()
    /// SHA-256 of the peer's certificate (nil when the peer sent none, e.g. a client to our server).
    public let peerCertificateSHA256: [UInt8]?
    /// The RSA public key of the peer's certificate; nil without one or when it is not RSA.
    public let peerRSAPublicKey: RSAPublicKey?
    /// The names in the peer certificate's subject (empty when it sent none).
    public let peerSubject: TLSPeerSubject

    private struct EngineBox: @unchecked Sendable {
        let engine: TLSEngine
        var pending: [UInt8] = []
    }

    private init(transport: TCPConnection, engine: TLSEngine, fingerprint: [UInt8]?) {
        self.transport = transport
        self.peerRSAPublicKey = engine.peerRSAPublicKey()
        self.peerSubject = engine.peerSubject()
        self.engine = Mutex(EngineBox(engine: engine))
        self.peerCertificateSHA256 = fingerprint
    }

    /// Runs a client handshake over `transport`. Checks the server's certificate as the
    /// context's trust says; with a pin, a different certificate fails with `.certificateChanged`.
    /// The transport is closed when the handshake fails.
    public static func connect(
        over transport: TCPConnection, context: TLSContext, serverName: String?,
        deadline: ContinuousClock.Instant? = LoopClock.current.now + .seconds(5)
    ) async throws -> TLSConnection {
        try await handshake(
            over: transport, engine: TLSEngine(context: context, serverName: serverName),
            deadline: deadline, operation: "TLS handshake with \(transport.remote)",
            pin: { if case .selfSigned(let pinned) = context.trust { pinned } else { nil } }())
    }

    /// Runs a server handshake over an accepted connection (simulated Samsung TVs, test brokers).
    /// With `clientCertificates` (SHA-256 fingerprints), a client must present one of them; any
    /// other gets alert certificate_unknown, as a TV that pins its paired clients sends.
    public static func accept(
        over transport: TCPConnection, context: TLSContext,
        deadline: ContinuousClock.Instant? = LoopClock.current.now + .seconds(5),
        clientCertificates: [[UInt8]]? = nil
    ) async throws -> TLSConnection {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(context: context, serverName: nil)
            if let clientCertificates { try engine.acceptOnlyClientCertificates(clientCertificates) }
        } catch {
            transport.close()
            throw error
        }
        return try await handshake(
            over: transport, engine: engine, deadline: deadline, operation: "TLS handshake from \(transport.remote)",
            pin: nil)
    }

    private static func handshake(
        over transport: TCPConnection, engine: TLSEngine, deadline: ContinuousClock.Instant?,
        operation: String,
        pin: [UInt8]?
    ) async throws -> TLSConnection {
        do {
            while true {
                let step = engine.handshake()
                let output = engine.takeOutput()
                if !output.isEmpty { try await transport.write(output, deadline: deadline) }
                switch step {
                case .done:
                    let fingerprint = engine.peerCertificateSHA256()
                    try checkPin(pin, presented: fingerprint, operation: operation)
                    return TLSConnection(transport: transport, engine: engine, fingerprint: fingerprint)
                case .needInput:
                    let input = try await transport.read(maxBytes: 16 * 1024, deadline: deadline)
                    if input.isEmpty { throw NetError(.tls, operation, "the peer closed the connection") }
                    engine.feed(input)
                case .closed:
                    throw NetError(.tls, operation, "the peer closed the connection")
                case .failed(let kind, let reason):
                    throw NetError(kind, operation, reason)
                }
            }
        } catch {
            transport.close()
            throw error
        }
    }

    /// With a pin, the peer's certificate must be the pinned one. Fails closed: a peer that
    /// sent no certificate at all (an anonymous cipher suite) is not the pinned TV either.
    static func checkPin(_ pin: [UInt8]?, presented fingerprint: [UInt8]?, operation: String)
        throws(NetError)
    {
        guard let pin else { return }
        guard let fingerprint else {
            throw NetError(
                .certificateChanged, operation,
                "the peer presented no certificate; pinned \(Digest.hex(pin, separator: ":"))")
        }
        if pin != fingerprint {
            throw NetError(
                .certificateChanged, operation,
                "certificate changed: pinned \(Digest.hex(pin, separator: ":")), got \(Digest.hex(fingerprint, separator: ":"))"
            )
        }
    }

    public var peerDescription: String { transport.peerDescription }
    public var isClosed: Bool { transport.isClosed }
    public var remote: SocketAddress { transport.remote }

    public func read(maxBytes: Int, deadline: ContinuousClock.Instant?) async throws -> [UInt8] {
        while true {
            let (bytes, step) = engine.withLock { box in
                let result = box.engine.readPlaintext(maxBytes: maxBytes)
                box.pending += box.engine.takeOutput()  // e.g. a TLS 1.3 key update answer
                return result
            }
            try await flush(deadline: deadline)
            if !bytes.isEmpty { return bytes }
            switch step {
            case .done, .needInput:
                let input = try await transport.read(maxBytes: 16 * 1024, deadline: deadline)
                // End of stream without close_notify: many peers do this; report it as the end.
                if input.isEmpty { return [] }
                engine.withLock { $0.engine.feed(input) }
            case .closed:
                return []
            case .failed(let kind, let reason):
                throw NetError(kind, "read from \(transport.remote)", reason)
            }
        }
    }

    public func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws {
        let step = engine.withLock { box in
            let step = box.engine.writePlaintext(bytes)
            box.pending += box.engine.takeOutput()
            return step
        }
        Trace.mark(.encrypted)
        if case .failed(let kind, let reason) = step {
            throw NetError(kind, "write to \(transport.remote)", reason)
        }
        if case .needInput = step {
            throw NetError(.tls, "write to \(transport.remote)", "renegotiation is not supported")
        }
        try await flush(deadline: deadline)
    }

    /// Sends every queued record, in order.
    private func flush(deadline: ContinuousClock.Instant?) async throws {
        guard engine.withLock({ !$0.pending.isEmpty }) else { return }
        await flushLock.lock()
        defer { flushLock.unlock() }
        while true {
            let chunk = engine.withLock { box in
                defer { box.pending = [] }
                return box.pending
            }
            if chunk.isEmpty { return }
            try await transport.write(chunk, deadline: deadline)
        }
    }

    /// Sends close_notify when it can go out at once, then closes the socket.
    public func close() {
        let alert = engine.withLock { box -> [UInt8] in
            box.engine.shutdown()
            return box.pending + box.engine.takeOutput()
        }
        transport.trySendNow(alert)
        transport.close()
    }
}
