import Drivers
import Net
import TVModel
import TVSimulators
import Testing
import Wire

/// The legacy Samsung driver against peers that answer wrongly: every bad reply becomes a
/// `DriverError`, never a trap or a hang; and the planner's refusals.
@Suite("Samsung legacy driver: bad replies and planning")
struct SamsungLegacyDriverTests {
    static let settings = DriverSettings(
        connectTimeout: .seconds(5), requestTimeout: .seconds(5), logger: .disabled)

    /// A TCP peer on `127.0.0.86` that reads what comes and answers the first packet with `script`
    /// (the bytes in pieces, `pause` apart), then closes.
    func withScriptedTV(
        _ script: [[UInt8]], pause: Duration = .zero, _ body: (SamsungLegacyDriver) async throws -> Void
    ) async throws {
        let listener = try TCPListener.bind(host: "127.0.0.86", port: 0)
        let server = Task {
            // Polls connect and close at once; the command's connection sends its packet.
            while let connection = try? await listener.accept() {
                guard let first = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(30)),
                    !first.isEmpty
                else {
                    connection.close()
                    continue
                }
                for piece in script {
                    if pause > .zero { try? await Task.sleep(for: pause) }
                    try? await connection.write(piece, deadline: .now + .seconds(30))
                }
                try? await Task.sleep(for: .milliseconds(200))
                connection.close()
            }
        }
        let description = SamsungLegacyDriver.describe(host: "127.0.0.86", port: listener.address.port)
        let driver = SamsungLegacyDriver(
            description: description, settings: Self.settings, clientName: "tv2mqtt", approvalTimeout: .seconds(3))
        defer {
            listener.close()
            server.cancel()
        }
        // The driver's deadlines on a clock that never moves (the peer keeps real time): each
        // case ends in what the TV sent or its close, never in a timeout on a busy machine.
        try await ManualClock().run {
            try await body(driver)
            await driver.shutdown()
        }
    }

    func reply(_ payload: [UInt8], type: UInt8 = 0) -> [UInt8] {
        SamsungLegacyPacket(type: type, app: SamsungLegacyReply.tvApp, payload: payload).encoded()
    }

    func failure(_ driver: SamsungLegacyDriver, _ command: TVCommand = .key(.shared(.home), repeat: 1)) async
        -> DriverError?
    {
        do {
            try await driver.perform(command)
            return nil
        } catch {
            return error
        }
    }

    @Test("garbage, an oversized length, a truncated reply and silence: each a DriverError")
    func badReplies() async throws {
        let cases: [([[UInt8]], DriverError.Kind)] = [
            ([[0x00, 0xFF, 0xFF] + Array(repeating: 0x41, count: 64)], .badResponse),  // app length 65535
            ([[0x00, 0x00, 0x00, 0xFF, 0x7F]], .badResponse),  // payload length 32767
            ([Array(reply([0x64, 0x00, 0x01, 0x00]).prefix(9))], .unreachable),  // cut, then closed
            ([reply([0x42, 0x42])], .badResponse),  // an unknown answer to authentication
            ([], .unreachable),  // closed without a word
        ]
        for (script, kind) in cases {
            try await withScriptedTV(script) { driver in
                let error = await failure(driver)
                #expect(error?.kind == kind, "\(script.first?.prefix(6) ?? []): \(String(describing: error))")
            }
        }
    }

    @Test("a reply delivered byte at a time is read whole: waiting, then granted, then the key's answer")
    func byteAtATime() async throws {
        let bytes = reply([0x0A, 0x00, 0x02, 0x00, 0x00, 0x00], type: 2) + reply([0x64, 0x00, 0x01, 0x00])
        try await withScriptedTV(bytes.map { [$0] }, pause: .milliseconds(5)) { driver in
            // The script ends after authentication: the key's answer never comes, so the key
            // fails on the closed connection, after a granted authentication (not unauthorized).
            let error = await failure(driver)
            #expect(error?.kind == .unreachable || error?.kind == .timeout, "\(String(describing: error))")
            let snapshot = await driver.poll(full: false)
            #expect(snapshot.pairingRequired == nil)
        }
    }

    @Test("a denial is unauthorized, says what to do, and sets pairing_required")
    func denial() async throws {
        try await withScriptedTV([reply([0x64, 0x00, 0x00, 0x00])]) { driver in
            let error = await failure(driver)
            #expect(error?.kind == .unauthorized)
            #expect(error?.message.contains("choose Allow") == true)
            let snapshot = await driver.poll(full: false)
            #expect(snapshot.pairingRequired == true)
        }
    }

    @Test("the planner: keys and power off; apps, text, volume level and power ON without a MAC are refused")
    func planning() throws {
        #expect(
            try SamsungLegacyPlanner.plan(.key(.shared(.volumeUp), repeat: 2), macs: [])
                == .keys(["KEY_VOLUP", "KEY_VOLUP"]))
        #expect(try SamsungLegacyPlanner.plan(.key(.vendor("KEY_POWEROFF"), repeat: 1), macs: []) == .power(.off))
        #expect(try SamsungLegacyPlanner.plan(.power(.off), macs: []) == .power(.off))
        #expect(try SamsungLegacyPlanner.plan(.power(.on), macs: ["aa:bb:cc:dd:ee:ff"]) == .power(.on))
        #expect(throws: CommandRejection.self) { try SamsungLegacyPlanner.plan(.power(.on), macs: []) }
        #expect(throws: CommandRejection.self) {
            try SamsungLegacyPlanner.plan(.key(.vendor("KEY_FACTORY"), repeat: 1), macs: [])
        }
        let refused: [TVCommand] = [
            .app("Netflix"), .text("hi"), .volume(10), .mute(true), .input("HDMI1"), .channel("7.1"),
            .search(SearchRequest(keyword: "news")), .artMode(true), .holdKey(.shared(.right), milliseconds: 500),
        ]
        for command in refused {
            #expect(throws: CommandRejection.self, "\(command)") { try SamsungLegacyPlanner.plan(command, macs: []) }
        }
    }
}
