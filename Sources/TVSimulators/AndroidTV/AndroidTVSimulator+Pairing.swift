import Net
import Support
import Wire

/// The pairing protocol on `pairingPort` (polo, `OuterMessage` of Google's `polo.proto`):
/// request → ack, options → options, configuration → ack and a code on screen, secret → ack
/// (the client's certificate is paired) or status 402 (the connection closes; a new pairing
/// shows a new code).
extension AndroidTVSimulator {
    static let statusOK: UInt64 = 200
    static let statusBadSecret: UInt64 = 402
    static let statusError: UInt64 = 400

    func servePairing(_ tcp: TCPConnection) async {
        if refusedAsleep(tcp, "pairing") { return }
        guard let tls = try? await TLSConnection.accept(over: tcp, context: context, deadline: .now + .seconds(30))
        else {
            tcp.close()
            return
        }
        defer { tls.close() }
        var reader = AndroidTVFrameReader(tls)
        var expected: [UInt8]?
        while let message = try? await reader.next() {
            guard message.uint(2) == Self.statusOK else {
                record("pairing", ["action": .string("status"), "status": .integer(Int64(message.uint(2) ?? 0))])
                return
            }
            switch message.kind {
            case 10:
                if options.fault == .pairingRefused {
                    record("pairing", ["action": .string("refused")])
                    _ = try? await send(outer(status: Self.statusError), on: tls)
                    return
                }
                let client = (try? message.message(10)?.string(2)) ?? ""
                record("pairing", ["action": .string("request"), "client": .string(client)])
                var ack = ProtobufMessage()
                ack.append(1, string: options.name)
                guard (try? await send(outer(11, ack), on: tls)) != nil else { return }
            case 20:
                var offered = ProtobufMessage()
                offered.append(1, message: Self.sixHexDigits)
                offered.append(3, uint: 1)
                guard (try? await send(outer(20, offered), on: tls)) != nil else { return }
            case 30:
                guard let client = tls.peerRSAPublicKey, let server = identity.rsaPublicKey else {
                    record("pairing", ["action": .string("no_client_certificate")])
                    _ = try? await send(outer(status: Self.statusError), on: tls)
                    return
                }
                let (code, secret) = Self.newCode(client: client, server: server)
                expected = secret
                core.withLock { $0.code = code }
                record("pairing", ["action": .string("code_shown"), "code": .string(code)])
                guard (try? await send(outer(31), on: tls)) != nil else { return }
            case 40:
                let secret = (try? message.message(40)?.bytes(1)) ?? []
                core.withLock { $0.code = nil }
                guard let expected, secret == expected, let fingerprint = tls.peerCertificateSHA256 else {
                    record("pairing", ["action": .string("wrong_code")])
                    _ = try? await send(outer(status: Self.statusBadSecret), on: tls)
                    return
                }
                core.withLock { core in
                    if !core.paired.contains(fingerprint) { core.paired.append(fingerprint) }
                }
                record("pairing", ["action": .string("paired")])
                var ack = ProtobufMessage()
                ack.append(1, bytes: secret)
                _ = try? await send(outer(41, ack), on: tls)
            default:
                record("pairing", ["action": .string("unexpected"), "field": .integer(Int64(message.kind ?? 0))])
                _ = try? await send(outer(status: Self.statusError), on: tls)
                return
            }
        }
    }

    /// `Options.Encoding` for six hexadecimal digits.
    static let sixHexDigits: ProtobufMessage = {
        var encoding = ProtobufMessage()
        encoding.append(1, uint: 3)
        encoding.append(2, uint: 6)
        return encoding
    }()

    /// A code as the TV makes one: two random bytes, behind the first byte of the secret they
    /// give with both keys.
    static func newCode(client: RSAPublicKey, server: RSAPublicKey) -> (String, [UInt8]) {
        let last = SecureRandom.bytes(2)
        let secret = Digest.sha256(client.modulus + client.exponent + server.modulus + server.exponent + last)
        return (Digest.hex([secret[0]] + last).uppercased(), secret)
    }

    /// An `OuterMessage`: version 2, `status`, and a body in `field` when there is one.
    func outer(_ field: UInt32? = nil, _ body: ProtobufMessage = ProtobufMessage(), status: UInt64 = statusOK)
        -> ProtobufMessage
    {
        var message = ProtobufMessage()
        message.append(1, uint: 2)
        message.append(2, uint: status)
        if let field { message.append(field, message: body) }
        return message
    }

    func send(_ message: ProtobufMessage, on stream: any ByteStream) async throws {
        try await stream.write(ProtobufDelimited.encode(message), deadline: .now + .seconds(30))
    }
}
