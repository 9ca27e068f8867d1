import Drivers
import Harness
import TVModel
import Testing
import Wire

@testable import Bridge

/// A command's path: route → parse → plan → queue → execute. The driver plans each command
/// once, when it arrives, and executes that plan; nothing is validated again on the way.
@Suite("Command path")
struct CommandPathTests {
    @Test("each command of a message is planned once and the plans are executed in order")
    func plannedOnce() async throws {
        try await withBridgeFixture { fixture in
            let driver = try await fixture.startRecordingTV()
            try await fixture.publish(
                "tv2mqtt/roku_sample1/set", #"{"power":"ON","key":"Home","transaction":"t1"}"#)
            let response = await fixture.log.waitFor("tv2mqtt/roku_sample1/response") { $0.text.contains("t1") }
            #expect(try JSONParser.parse(#require(response).payload)["status"] == "ok")
            let expected: [TVCommand] = [.power(.on), .key(.vendor("Home"), repeat: 1)]
            #expect(driver.performed == expected)
            #expect(driver.planned == expected)
        }
    }

    @Test("a command the driver refuses is planned once, fails the whole message, and nothing is executed")
    func refusedOnce() async throws {
        try await withBridgeFixture { fixture in
            let driver = try await fixture.startRecordingTV()
            try await fixture.publish(
                "tv2mqtt/roku_sample1/set", #"{"key":"Home","volume":20,"transaction":"t2"}"#)
            let response = await fixture.log.waitFor("tv2mqtt/roku_sample1/response") { $0.text.contains("t2") }
            let answer = try JSONParser.parse(#require(response).payload)
            #expect(answer["status"] == "error")
            #expect(answer["error"]?.stringValue?.contains("volume level") == true)
            #expect(driver.planned == [.volume(20)])
            #expect(driver.performed.isEmpty)
        }
    }
}
