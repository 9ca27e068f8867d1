import Clients
import Net
import TVSimulators
import Testing
import Wire

/// What the simulated LG does with messages a real TV would refuse, and with subscriptions
/// ended or pushed by screen changes.
@Suite struct LGBadInputTests {
    @Test func garbageGets400AndTheConnectionStaysUsable() async throws {
        try await withLG { (sim, _, log) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            try await ssap.connection.send(text: "not json")
            try await ssap.connection.send(text: "[1,2]")
            try await ssap.send(["type": "launch", "id": "odd"])
            try await ssap.send(["type": "request", "id": "nouri"])
            try await ssap.send(["type": "request", "id": "badpayload", "uri": "ssap://audio/setVolume", "payload": 5])
            try await ssap.send(
                ["type": "request", "id": "badvolume", "uri": "ssap://audio/setVolume", "payload": ["volume": "ten"]])
            try await ssap.connection.send(binary: [0, 1, 2])
            let odd = await ssap.wait(id: "odd", type: "error")
            #expect(odd?["error"] == "400 bad request")
            let noURI = await ssap.wait(id: "nouri", type: "error")
            #expect(noURI?["error"] == "400 bad request")
            let badPayload = await ssap.wait(id: "badpayload", type: "error")
            #expect(badPayload?["error"] == "400 bad request")
            let badVolume = await ssap.wait(id: "badvolume", type: "error")
            #expect(badVolume?["error"] == "400 bad request")
            let nullIDs = ssap.messages(id: .null).filter { $0["error"] == "400 bad request" }
            #expect(nullIDs.count == 2)
            #expect(sim.state.volume == 10)
            let still = try await ssap.request("audio/setVolume", ["volume": 12], id: "ok")
            #expect(still?["payload"]?["returnValue"] == true)
            #expect(sim.state.volume == 12)

            let pointerAnswer = try await ssap.request("com.webos.service.networkinput/getPointerInputSocket", id: "p")
            let pointer = try await SSAPTestClient.open(
                url: pointerAnswer?["payload"]?["socketPath"]?.stringValue ?? "")
            try await pointer.connection.send(text: "hello there")
            let refused = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "pointer" }
            #expect(refused?["refused"] == "malformed")
            await pointer.close()
            await ssap.close()
        }
    }

    @Test func unsubscribedGetsNoMorePushesAndScreenOffIsPushed() async throws {
        try await withLG { (sim, client, _) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            _ = try await ssap.request("audio/getVolume", id: "v", type: "subscribe")
            _ = try await ssap.request("com.webos.service.tvpower/power/getPowerState", id: "p", type: "subscribe")
            try await ssap.send(["type": "unsubscribe", "id": "v"])
            _ = try await ssap.request("com.webos.service.tvpower/power/turnOffScreen", id: "off")
            let pushed = await ssap.waitMessages(id: "p", count: 2)
            #expect(pushed.last?["payload"]?["state"] == "Screen Off")
            #expect(sim.state.power == .screenOff)
            #expect(try await client.post("/sim/state", #"{"volume":40}"#).status == 200)
            _ = try await ssap.request("com.webos.service.tvpower/power/turnOnScreen", id: "on")
            let back = await ssap.waitMessages(id: "p", count: 3)
            #expect(back.last?["payload"]?["state"] == "Active")
            // The unsubscribed volume got its first answer only.
            #expect(ssap.messages(id: "v").count == 1)
            let refused = try await client.post("/sim/state", #"{"power_mode":"Off"}"#)
            #expect(refused.status == 400)
            await ssap.close()
        }
    }
}

/// The faults a client's bad-input tests set on the simulated LG, and its certificate change.
@Suite struct LGFaultTests {
    @Test func faultsChangeTheAnswersAsSaid() async throws {
        try await withLG { (sim, _, _) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            // Each fault applies to the answers sent after it: one request each, answered before the next.
            sim.setFault(.unknownIDs)
            try await ssap.send(["type": "request", "id": "a", "uri": "ssap://audio/getVolume"])
            let stranger = await eventually(timeout: .seconds(10)) {
                ssap.received.contains { $0["id"]?.stringValue?.hasPrefix("unknown-") == true }
            }
            #expect(stranger)
            #expect(ssap.messages(id: "a").isEmpty)
            sim.setFault(.unknownType)
            let bogus = try await ssap.request("audio/getVolume", id: "b")
            #expect(bogus?["type"] == "bogus")
            sim.setFault(.huge(100_000))
            let huge = try await ssap.request("audio/getVolume", id: "c")
            #expect(huge?["payload"]?["junk"]?.stringValue?.count == 100_000)
            sim.setFault(.garbage)
            try await ssap.send(["type": "request", "id": "d", "uri": "ssap://audio/getVolume"])
            let garbage = await eventually(timeout: .seconds(10)) { ssap.receivedTexts.contains("}{ not json") }
            #expect(garbage)
            sim.setFault(.pointerHost("192.0.2.1"))
            let pointer = try await ssap.request("com.webos.service.networkinput/getPointerInputSocket", id: "e")
            let path = pointer?["payload"]?["socketPath"]?.stringValue ?? ""
            #expect(path.hasPrefix("wss://192.0.2.1:"))
            sim.setFault(nil)
            let fine = try await ssap.request("audio/getVolume", id: "f")
            #expect(fine?["type"] == "response")
            await ssap.close()
        }
    }

    @Test func replacedCertificateIsServedToNewConnectionsUntilRestored() async throws {
        try await withLG { (sim, _, _) async throws in
            let original = sim.certificateSHA256
            try await sim.replaceCertificate()
            #expect(sim.certificateSHA256 != original)
            let changed = try await SSAPTestClient.open(sim)
            #expect(changed.fingerprint == sim.certificateSHA256)
            await changed.close()
            sim.restoreCertificate()
            let back = try await SSAPTestClient.open(sim)
            #expect(back.fingerprint == original)
            await back.close()
        }
    }
}
