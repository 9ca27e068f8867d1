import Net
import TestSupport
import Testing

@testable import Drivers

/// Our codecs against the bytes androidtvremote2's own protobuf modules make
/// (`Tests/Fixtures/androidtv`, made by its `make-fixtures.py`): what a TV sends is read as
/// the library means it, and what the bridge sends is byte for byte what the library sends.
@Suite("Android TV messages against androidtvremote2's bytes")
struct AndroidTVFixtureTests {
    /// `who name` → the bytes of one line.
    static func lines(_ file: String) throws -> [String: [UInt8]] {
        var lines: [String: [UInt8]] = [:]
        for line in try TestFixtures.text("androidtv/" + file).split(separator: "\n") {
            let parts = line.split(separator: " ")
            lines[parts[0] + " " + parts[1]] = hexBytes(parts.count > 2 ? String(parts[2]) : "")
        }
        return lines
    }

    static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    @Test("what a TV sends on 6466 reads as the library means it")
    func tvRemoteMessages() throws {
        let lines = try Self.lines("remote.txt")
        let read = { (name: String) throws -> AndroidTVRemoteMessage in
            try AndroidTVRemoteMessage(decoding: lines["tv " + name]![...])
        }
        #expect(
            try read("configure")
                == .configure(
                    AndroidTVFeatures(rawValue: 622),
                    .init(
                        model: "BRAVIA 4K UR3", vendor: "Sony", packageName: "com.google.android.tv.remote.service",
                        appVersion: "5.2.473254133")))
        #expect(try read("set_active") == .setActive([]))
        #expect(try read("ping_request") == .pingRequest(12))
        #expect(try read("start_on") == .start(started: true))
        #expect(try read("start_standby") == .start(started: false))
        #expect(try read("volume") == .volume(level: 12, maximum: 100, muted: false))
        #expect(try read("app") == .appInFront(package: "com.netflix.ninja"))
        #expect(try read("batch_edit") == .imeBatchEdit(imeCounter: 5, fieldCounter: 3, text: nil))
        #expect(try read("error") == .error(.key(code: 3, .short)))
        #expect(try read("ime_show") == .other(field: 22))
    }

    @Test("what the bridge sends on 6466 is byte for byte what androidtvremote2 sends")
    func clientRemoteMessages() throws {
        let lines = try Self.lines("remote.txt")
        let sent: [(String, AndroidTVRemoteMessage)] = [
            ("configure", .configure(AndroidTVFeatures(rawValue: 614), AndroidTVRemoteSession.ownDevice)),
            ("set_active", .setActive(AndroidTVFeatures(rawValue: 614))),
            ("ping_response", .pingResponse(12)),
            ("key_home", .key(code: 3, .short)),
            ("key_volume_up_start", .key(code: 24, .startLong)),
            ("key_volume_up_end", .key(code: 24, .endLong)),
            ("app_link", .appLink("https://www.netflix.com/title/80057281")),
            ("text", .imeBatchEdit(imeCounter: 5, fieldCounter: 3, text: "hello")),
        ]
        for (name, message) in sent {
            #expect(message.encoded().encoded() == lines["client " + name], "\(name)")
        }
    }

    @Test("the pairing exchange: the TV's messages read, ours byte for byte the library's")
    func pairingMessages() throws {
        let lines = try Self.lines("pairing.txt")
        let ours: [(String, AndroidTVPairingMessage)] = [
            ("pairing_request", AndroidTVPairingSession.request(clientName: "tv2mqtt")),
            (
                "options",
                AndroidTVPairingMessage(
                    .options(inputEncodings: [.sixHexDigits], outputEncodings: [], preferredRole: 1))
            ),
            ("configuration", AndroidTVPairingMessage(.configuration(.sixHexDigits, clientRole: 1))),
            ("secret", AndroidTVPairingMessage(.secret(Array(0..<32)))),
        ]
        for (name, message) in ours {
            #expect(message.encoded().encoded() == lines["client " + name], "\(name)")
        }
        var session = AndroidTVPairingSession()
        let steps = try ["pairing_request_ack", "options", "configuration_ack"].map { name in
            session.received(try AndroidTVPairingMessage(decoding: lines["tv " + name]![...]))
        }
        #expect(steps.last == .codeShown && session.phase == .codeShown, "\(steps)")
        let bad = try AndroidTVPairingMessage(decoding: lines["tv bad_secret"]![...])
        #expect(bad.status == 402 && bad.body == AndroidTVPairingMessage.Body.none)
        #expect(
            try AndroidTVPairingMessage(decoding: lines["tv secret_ack"]![...]).body == .secretAck(Array(0..<32)))
    }

    @Test("the secret from two real certificates and a code is the one pairing.py computes")
    func secret() throws {
        let text = try TestFixtures.text("androidtv/secret.txt")
        let fields = text.split(separator: "\n", maxSplits: 2)
        let code = String(fields[0].dropFirst("code ".count))
        let expected = Self.hexBytes(String(fields[1].dropFirst("secret ".count)))
        let pems = String(fields[2]).components(endingWith: "-----END CERTIFICATE-----\n")
        try #require(pems.count == 2)
        let client = try #require(TLSIdentity(certificatePEM: pems[0], privateKeyPEM: "").rsaPublicKey)
        let server = try #require(TLSIdentity(certificatePEM: pems[1], privateKeyPEM: "").rsaPublicKey)
        #expect(try AndroidTVPairingCode(code).secret(client: client, server: server) == expected)
        #expect(throws: DriverError.self) { try AndroidTVPairingCode(code).secret(client: server, server: client) }
    }
}

extension String {
    /// The pieces of `self` each ending with `terminator` (what follows the last is dropped).
    fileprivate func components(endingWith terminator: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: terminator) {
            pieces.append(String(rest[..<range.upperBound]))
            rest = rest[range.upperBound...]
        }
        return pieces
    }
}
