import Clients
import Net
import TVSimulators
import Testing
import Wire

/// Registration: the prompt approved, denied and ignored, the PIN flow, and a returned client
/// key registering silently while a wrong one prompts again.
@Suite struct LGPairingTests {
    @Test func approvedPromptIssuesAKeyThatLaterRegistersSilently() async throws {
        try await withLG { (sim, _, log) async throws in
            let first = try await SSAPTestClient.open(sim)
            try await first.register()
            let answers = await first.waitMessages(id: "register_0", count: 2)
            #expect(answers.first?["type"] == "response")
            #expect(answers.first?["payload"]?["pairingType"] == "PROMPT")
            #expect(answers.last?["type"] == "registered")
            let key = try #require(answers.last?["payload"]?["client-key"]?.stringValue)
            #expect(key.count == 32)
            #expect(sim.clientKeys == [key])
            await first.close()

            let again = try await SSAPTestClient.open(sim)
            try await again.register(key: key)
            let registered = await again.wait(id: "register_0", type: "registered")
            #expect(registered?["payload"]?["client-key"] == .string(key))
            // No prompt this time: the only answer is `registered`.
            #expect(again.messages(id: "register_0").count == 1)
            let silent = await log.waitFor(timeout: .seconds(30)) { $0["action"] == "silent" }
            #expect(silent?["kind"] == "pairing")
            await again.close()
        }
    }

    @Test func wrongKeyMeetsThePromptAgain() async throws {
        try await withLG { (sim, _, _) async throws in
            let client = try await SSAPTestClient.open(sim)
            try await client.register(key: "0123456789abcdef0123456789abcdef")
            let answers = await client.waitMessages(id: "register_0", count: 2)
            #expect(answers.first?["payload"]?["pairingType"] == "PROMPT")
            let key = answers.last?["payload"]?["client-key"]?.stringValue
            #expect(key != nil)
            #expect(key != "0123456789abcdef0123456789abcdef")
            await client.close()
        }
    }

    @Test func deniedPromptAnswers403AndRefusesRequests() async throws {
        try await withLG(lgOptions(approval: .deny)) { (sim, _, log) async throws in
            let client = try await SSAPTestClient.open(sim)
            try await client.register()
            let error = await client.wait(id: "register_0", type: "error")
            #expect(error?["error"] == "403 User denied access")
            let refused = try await client.request("audio/getVolume", id: 1)
            #expect(refused?["type"] == "error")
            #expect(refused?["error"] == "401 insufficient permissions")
            #expect(sim.clientKeys.isEmpty)
            let denied = await log.waitFor(timeout: .seconds(30)) { $0["action"] == "denied" }
            #expect(denied != nil)
            await client.close()
        }
    }

    @Test func ignoredPromptSaysNothingAfterTheResponse() async throws {
        try await withLG(lgOptions(approval: .ignore)) { (sim, _, _) async throws in
            let client = try await SSAPTestClient.open(sim)
            try await client.register()
            let prompt = await client.wait(id: "register_0", type: "response")
            #expect(prompt?["payload"]?["pairingType"] == "PROMPT")
            try await Task.sleep(for: .seconds(1))
            #expect(client.messages(id: "register_0").count == 1)
            #expect(client.closeReason == nil)
            #expect(sim.clientKeys.isEmpty)
            await client.close()
        }
    }

    @Test func pinFlowRegistersWithTheRightPinOnly() async throws {
        try await withLG(lgOptions(pairing: .pin)) { (sim, _, log) async throws in
            let wrong = try await SSAPTestClient.open(sim)
            try await wrong.register()
            let asks = await wrong.wait(id: "register_0", type: "response")
            #expect(asks?["payload"]?["pairingType"] == "PIN")
            let shown = await log.waitFor(timeout: .seconds(30)) { $0["action"] == "pin" }
            #expect(shown?["pin"] == "12345678")
            try await wrong.send([
                "type": "request", "id": "p", "uri": "ssap://pairing/setPin", "payload": ["pin": "11111111"],
            ])
            let refused = await wrong.wait(id: "register_0", type: "error")
            #expect(refused?["error"] == "403 User denied access")
            await wrong.close()

            let right = try await SSAPTestClient.open(sim)
            try await right.register()
            _ = await right.wait(id: "register_0", type: "response")
            try await right.send([
                "type": "request", "id": "p", "uri": "ssap://pairing/setPin", "payload": ["pin": "12345678"],
            ])
            let registered = await right.wait(id: "register_0", type: "registered")
            let key = try #require(registered?["payload"]?["client-key"]?.stringValue)
            #expect(sim.clientKeys == [key])
            let accepted = await right.wait(id: "p", type: "response")
            #expect(accepted?["payload"]?["returnValue"] == true)
            await right.close()
        }
    }

    @Test func requestsBeforeRegisteringAre401AndHelloAnswers() async throws {
        try await withLG { (sim, _, _) async throws in
            let client = try await SSAPTestClient.open(sim)
            try await client.send(["type": "hello", "id": "hello"])
            let hello = await client.wait(id: "hello", type: "hello")
            #expect(hello?["payload"]?["deviceOS"] == "webOS")
            #expect(hello?["payload"]?["deviceUUID"] == .string(String(sim.udn.dropFirst(5))))
            let refused = try await client.request("system/turnOff", id: 5)
            #expect(refused?["error"] == "401 insufficient permissions")
            #expect(sim.state.power == .active)
            await client.close()
        }
    }
}
