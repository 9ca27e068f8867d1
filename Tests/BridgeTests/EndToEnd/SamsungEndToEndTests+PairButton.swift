import Harness
import MQTTInterface
import TVSimulators
import Testing
import Wire

@testable import Bridge

extension SamsungEndToEndTests {
    @Test("the pair button (issue 17) sends tv/pair for its TV: the TV is asked and the answer is ok")
    func pairButton() async throws {
        try await withSamsung { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            let button = try await fixture.component("pair", of: Self.id)
            #expect(button["command_topic"] == "tv2mqtt/bridge/request/tv/pair")
            #expect(button["payload_press"] == #"{"id":"living_room"}"#)
            try await fixture.use("pair", of: Self.id)
            let response = await fixture.expectMessage("tv2mqtt/bridge/response/tv/pair")
            let answer = try JSONParser.parse(#require(response).payload)
            #expect(answer["status"] == "ok", "\(answer)")
            await expectReceived(log) { $0["kind"] == "pairing" && $0["result"] == "accepted" }
            #expect(simulator.issuedTokens.count == 1)
        }
    }

    @Test("a TV that denies us: pairing_required reaches the TV's event topic with event_type")
    func pairingRequiredOnEventTopic() async throws {
        try await withSamsung(pairing: .deny) { fixture, _, _ in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set/key", "home")
            let message = await fixture.expectMessage("tv2mqtt/\(Self.id)/event") {
                (try? JSONParser.parse($0.payload))?[TVEventType.member] == "pairing_required"
            }
            let event = try JSONParser.parse(#require(message).payload)
            #expect(event["type"] == "pairing_required")
            #expect(event["tv"] == .string(Self.id))
            #expect(message?.retain == false)
        }
    }
}
