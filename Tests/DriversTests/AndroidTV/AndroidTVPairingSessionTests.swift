import Net
import Testing

@testable import Drivers

/// The pairing's order on port 6467, without sockets: what the TV answers in, what the bridge
/// sends out, and what the user is told.
@Suite("Android TV pairing: the polo exchange and the code's checksum")
struct AndroidTVPairingSessionTests {
    static let client = RSAPublicKey(modulus: [0xC1, 0x02, 0x03], exponent: [0x01, 0x00, 0x01])
    static let server = RSAPublicKey(modulus: [0xD4, 0x05, 0x06], exponent: [0x03])

    /// A code whose checksum matches the two keys above, found the way the TV makes one.
    static func validCode(last: [UInt8] = [0x12, 0x34]) -> String {
        let hash = Digest.sha256(client.modulus + client.exponent + server.modulus + server.exponent + last)
        return Digest.hex([hash[0]] + last).uppercased()
    }

    static func shown() -> AndroidTVPairingSession {
        var session = AndroidTVPairingSession()
        _ = session.received(AndroidTVPairingMessage(.pairingRequestAck(serverName: "Living room")))
        _ = session.received(
            AndroidTVPairingMessage(.options(inputEncodings: [.sixHexDigits], outputEncodings: [], preferredRole: 1)))
        _ = session.received(AndroidTVPairingMessage(.configurationAck))
        return session
    }

    @Test("request, options, configuration, code shown, secret, paired: each answer in its turn")
    func happyPath() throws {
        #expect(
            AndroidTVPairingSession.request(clientName: "tv2mqtt").body
                == .pairingRequest(serviceName: "atvremote", clientName: "tv2mqtt"))
        var session = AndroidTVPairingSession()
        #expect(
            session.received(AndroidTVPairingMessage(.pairingRequestAck(serverName: nil)))
                == .send(
                    AndroidTVPairingMessage(
                        .options(inputEncodings: [.sixHexDigits], outputEncodings: [], preferredRole: 1))))
        #expect(
            session.received(
                AndroidTVPairingMessage(
                    .options(inputEncodings: [.sixHexDigits], outputEncodings: [.sixHexDigits], preferredRole: 1)))
                == .send(AndroidTVPairingMessage(.configuration(.sixHexDigits, clientRole: 1))))
        #expect(session.received(AndroidTVPairingMessage(.configurationAck)) == .codeShown)
        #expect(session.phase == .codeShown)
        let code = Self.validCode()
        let secret = try session.secret(for: code, client: Self.client, server: Self.server)
        let expected = Digest.sha256(
            Self.client.modulus + Self.client.exponent + Self.server.modulus + Self.server.exponent + [0x12, 0x34])
        #expect(secret.body == .secret(expected))
        #expect(session.received(AndroidTVPairingMessage(.secretAck(expected))) == .paired)
        #expect(session.phase == .paired)
    }

    @Test("a mistyped code is refused by its checksum and the TV still waits for the right one")
    func mistypedCode() throws {
        var session = Self.shown()
        let code = Self.validCode()
        let first = UInt8(code.prefix(2), radix: 16)!
        let wrong = Digest.hex([first ^ 0x01]).uppercased() + code.dropFirst(2)
        #expect(throws: DriverError.self) { try session.secret(for: wrong, client: Self.client, server: Self.server) }
        do {
            _ = try session.secret(for: wrong, client: Self.client, server: Self.server)
        } catch {
            #expect(error.kind == .unauthorized && error.message.contains("check digits"))
        }
        #expect(session.phase == .codeShown)
        let secret = try session.secret(for: code.lowercased(), client: Self.client, server: Self.server)
        #expect(session.phase == .secretSent)
        guard case .secret(let bytes) = secret.body else {
            Issue.record("no secret: \(secret.body)")
            return
        }
        #expect(bytes.count == 32 && bytes[0] == first)
    }

    @Test("a code of the wrong form says what a code looks like; either case is taken")
    func codeForm() throws {
        for bad in ["", "12345", "1234567", "12345G", "12 34 5", "AB 12 CD", "１２３４５６"] {
            do {
                _ = try AndroidTVPairingCode(bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.kind == .rejected && error.message.contains("6 hexadecimal digits"))
            }
        }
        #expect(try AndroidTVPairingCode("ab12cd").bytes == [0xAB, 0x12, 0xCD])
        #expect(try AndroidTVPairingCode("AB12CD").bytes == [0xAB, 0x12, 0xCD])
    }

    @Test("status 402 means the code was wrong: pair again for a new one; other statuses are refusals")
    func statuses() {
        var session = Self.shown()
        let step = session.received(AndroidTVPairingMessage(.none, status: 402))
        guard case .failed(let error) = step else {
            Issue.record("\(step)")
            return
        }
        #expect(error.kind == .unauthorized && error.message.contains("402") && error.message.contains("pair again"))
        #expect(session.phase == .failed(error))
        var other = AndroidTVPairingSession()
        #expect(
            other.received(AndroidTVPairingMessage(.none, status: 400))
                == .failed(DriverError(.rejected, "the TV refused pairing with status 400")))
    }

    @Test("a message out of turn fails the pairing; a code before the TV shows one is refused")
    func outOfTurn() {
        var session = AndroidTVPairingSession()
        #expect(throws: DriverError.self) {
            try session.secret(for: "AB12CD", client: Self.client, server: Self.server)
        }
        let step = session.received(AndroidTVPairingMessage(.configurationAck))
        #expect(
            step == .failed(DriverError(.badResponse, "the TV answered pairing out of turn (configuration ack)")))
        var late = Self.shown()
        #expect(late.received(AndroidTVPairingMessage(.secretAck([]))) != .paired, "a secret ack before the secret")
    }
}
