import Wire

/// One message of the pairing protocol on port 6467 ("polo", `OuterMessage` of Google's
/// `polo.proto`): a protocol version, a status, and at most one body. Both ends send version 2.
struct AndroidTVPairingMessage: Equatable, Sendable {
    /// A code shown on the screen, in one of the encodings `polo.proto` names.
    struct Encoding: Equatable, Sendable {
        /// `ENCODING_TYPE_HEXADECIMAL`: the only one Android TVs show.
        static let hexadecimal: UInt64 = 3
        var type: UInt64
        var symbolLength: UInt64

        static let sixHexDigits = Encoding(type: hexadecimal, symbolLength: 6)
    }

    /// `ROLE_TYPE_INPUT`: the client types the code the TV shows.
    static let roleInput: UInt64 = 1

    enum Body: Equatable, Sendable {
        case pairingRequest(serviceName: String, clientName: String)
        case pairingRequestAck(serverName: String?)
        case options(inputEncodings: [Encoding], outputEncodings: [Encoding], preferredRole: UInt64?)
        case configuration(Encoding, clientRole: UInt64)
        case configurationAck
        case secret([UInt8])
        case secretAck([UInt8])
        /// No body: what a TV sends with a status other than 200.
        case none

        /// The body's name in `polo.proto`, for a log line (a secret's bytes stay out of it).
        var name: String {
            switch self {
            case .pairingRequest: "pairing request"
            case .pairingRequestAck: "pairing request ack"
            case .options: "options"
            case .configuration: "configuration"
            case .configurationAck: "configuration ack"
            case .secret: "secret"
            case .secretAck: "secret ack"
            case .none: "no body"
            }
        }
    }

    /// `OuterMessage.Status`: 200, or a fault.
    static let statusOK: UInt64 = 200
    /// The code's checksum matched but the secret did not: the TV closes and starts over.
    static let statusBadSecret: UInt64 = 402

    static let protocolVersion: UInt64 = 2

    var status: UInt64
    var body: Body

    init(_ body: Body, status: UInt64 = Self.statusOK) {
        self.body = body
        self.status = status
    }

    /// The fields of each body, by `polo.proto`'s numbers.
    private enum Field {
        static let protocolVersion: UInt32 = 1
        static let status: UInt32 = 2
        static let pairingRequest: UInt32 = 10
        static let pairingRequestAck: UInt32 = 11
        static let options: UInt32 = 20
        static let configuration: UInt32 = 30
        static let configurationAck: UInt32 = 31
        static let secret: UInt32 = 40
        static let secretAck: UInt32 = 41
    }

    func encoded() -> ProtobufMessage {
        var message = ProtobufMessage()
        message.append(Field.protocolVersion, uint: Self.protocolVersion)
        message.append(Field.status, uint: status)
        switch body {
        case .pairingRequest(let service, let client):
            var request = ProtobufMessage()
            request.append(1, string: service)
            request.append(2, string: client)
            message.append(Field.pairingRequest, message: request)
        case .pairingRequestAck(let server):
            var ack = ProtobufMessage()
            if let server { ack.append(1, string: server) }
            message.append(Field.pairingRequestAck, message: ack)
        case .options(let input, let output, let role):
            var options = ProtobufMessage()
            for encoding in input { options.append(1, message: encoding.encoded()) }
            for encoding in output { options.append(2, message: encoding.encoded()) }
            if let role { options.append(3, uint: role) }
            message.append(Field.options, message: options)
        case .configuration(let encoding, let role):
            var configuration = ProtobufMessage()
            configuration.append(1, message: encoding.encoded())
            configuration.append(2, uint: role)
            message.append(Field.configuration, message: configuration)
        case .configurationAck:
            message.append(Field.configurationAck, message: ProtobufMessage())
        case .secret(let secret):
            message.append(Field.secret, message: ProtobufMessage([ProtobufField(1, .bytes(secret))]))
        case .secretAck(let secret):
            message.append(Field.secretAck, message: ProtobufMessage([ProtobufField(1, .bytes(secret))]))
        case .none:
            break
        }
        return message
    }

    /// Reads one message; fields it does not know are skipped, as protobuf requires.
    /// - Throws: what the protobuf decoder throws, or `malformed` for a message without a
    ///   status or with a body whose required field is missing.
    init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        let message = try ProtobufMessage(decoding: bytes)
        guard let status = message.uint(Field.status) else {
            throw .malformed(Self.proto, "a pairing message without a status")
        }
        self.status = status
        body = try Self.body(of: message)
    }

    static let proto = "Android TV pairing"

    private static func body(of message: ProtobufMessage) throws(WireError) -> Body {
        if let request = try message.message(Field.pairingRequest) {
            guard let service = request.string(1) else {
                throw .malformed(proto, "a pairing request without a service name")
            }
            return .pairingRequest(serviceName: service, clientName: request.string(2) ?? "")
        }
        if let ack = try message.message(Field.pairingRequestAck) {
            return .pairingRequestAck(serverName: ack.string(1))
        }
        if let options = try message.message(Field.options) {
            return .options(
                inputEncodings: try encodings(options.all(1)), outputEncodings: try encodings(options.all(2)),
                preferredRole: options.uint(3))
        }
        if let configuration = try message.message(Field.configuration) {
            guard let encoding = try configuration.message(1), let role = configuration.uint(2) else {
                throw .malformed(proto, "a configuration without its encoding or role")
            }
            return .configuration(Encoding(encoding), clientRole: role)
        }
        if message.has(Field.configurationAck) { return .configurationAck }
        if let secret = try message.message(Field.secret) {
            guard let bytes = secret.bytes(1) else { throw .malformed(proto, "a secret without its bytes") }
            return .secret(bytes)
        }
        if let ack = try message.message(Field.secretAck) {
            return .secretAck(ack.bytes(1) ?? [])
        }
        return .none
    }

    private static func encodings(_ values: [ProtobufField.Value]) throws(WireError) -> [Encoding] {
        var encodings: [Encoding] = []
        for value in values {
            guard case .bytes(let bytes) = value else { throw .malformed(proto, "an encoding that is no message") }
            encodings.append(Encoding(try ProtobufMessage(decoding: bytes)))
        }
        return encodings
    }
}

extension AndroidTVPairingMessage.Encoding {
    fileprivate func encoded() -> ProtobufMessage {
        var message = ProtobufMessage()
        message.append(1, uint: type)
        message.append(2, uint: symbolLength)
        return message
    }

    /// Missing numbers read as 0 (proto2's defaults), which no check accepts.
    fileprivate init(_ message: ProtobufMessage) {
        self.init(type: message.uint(1) ?? 0, symbolLength: message.uint(2) ?? 0)
    }
}
