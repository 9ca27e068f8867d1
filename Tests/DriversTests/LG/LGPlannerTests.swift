import TVModel
import TestSupport
import Testing
import Wire

@testable import Drivers

@Suite("LG command planning and readings", .cpuBound)
struct LGPlannerTests {
    let planner = LGCommandPlanner(
        apps: [TVApp(id: "netflix", name: "Netflix"), TVApp(id: "com.webos.app.livetv", name: "Live TV")],
        inputs: [LGInput(id: "HDMI_1", label: "HDMI 1", appID: "com.webos.app.hdmi1")],
        channels: [LGChannel(id: "3_7_1", number: "7-1", name: "KQED")])

    @Test("keys become pointer buttons, repeated; inputs and power go their own ways")
    func keys() throws {
        #expect(try planner.plan(.key(.shared(.home), repeat: 2)) == [.buttons(["HOME", "HOME"])])
        #expect(try planner.plan(.key(.vendor("red"), repeat: 1)) == [.buttons(["RED"])])
        #expect(try planner.plan(.key(.shared(.powerOn), repeat: 1)) == [.power(.on)])
        #expect(
            try planner.plan(.key(.shared(.inputHDMI1), repeat: 1))
                == [.request(LGURI.switchInput, ["inputId": "HDMI_1"])])
        for key in SharedKey.allCases where key != .playPause { #expect(LGKeys.shared[key] != nil, "\(key)") }
    }

    @Test("unknown keys, play_pause, held keys and search are refused with a reason")
    func refusals() {
        let commands: [TVCommand] = [
            .key(.vendor("KEY_SERVICE_MENU"), repeat: 1), .key(.shared(.playPause), repeat: 1),
            .holdKey(.shared(.up), milliseconds: 500), .search(SearchRequest(keyword: "x")), .app("Nope"),
            .input("HDMI 9"),
        ]
        for command in commands {
            #expect(throws: CommandRejection.self) { try planner.plan(command) }
        }
    }

    @Test("apps by name or id, launch with params, inputs and channels by label, number or name")
    func resolves() throws {
        #expect(try planner.plan(.app("netflix")) == [.request(LGURI.launch, ["id": "netflix"])])
        #expect(try planner.plan(.app("NETFLIX")) == [.request(LGURI.launch, ["id": "netflix"])])
        #expect(
            try planner.plan(.launch(appID: "youtube.leanback.v4", contentID: "abc", mediaType: nil))
                == [.request(LGURI.launch, ["id": "youtube.leanback.v4", "params": ["contentId": "abc"]])])
        #expect(try planner.plan(.input("hdmi 1")) == [.request(LGURI.switchInput, ["inputId": "HDMI_1"])])
        for wanted in ["7-1 KQED", "7-1", "kqed"] {
            #expect(try planner.plan(.channel(wanted)) == [.request(LGURI.openChannel, ["channelId": "3_7_1"])])
        }
        #expect(try planner.plan(.channel("9-1")) == [.request(LGURI.openChannel, ["channelNumber": "9-1"])])
    }

    @Test(
        "power states: Screen Off is on, Active Standby and Suspend are off, a power-off request is off",
        arguments: [
            ("Active", "", true), ("Screen Saver", "", true), ("Screen Off", "", true), ("Active Standby", "", false),
            ("Suspend", "", false), ("Active", "Request Active Standby", false), ("Active", "Screen On", true),
        ])
    func power(state: String, processing: String, on: Bool) {
        var snapshot = TVSnapshot(reachable: true)
        var payload: [String: JSONValue] = ["state": .string(state)]
        if !processing.isEmpty { payload["processing"] = .string(processing) }
        LGReadings.power(.object(payload), into: &snapshot)
        #expect(snapshot.power == on)
        #expect(snapshot.powerMode == state)
    }

    @Test("volume in the flat (webOS 3-4) and nested (webOS 5+) forms; out-of-range volume is ignored")
    func volume() {
        var snapshot = TVSnapshot(reachable: true)
        LGReadings.volume(["volume": 12, "muted": true], into: &snapshot)
        #expect(snapshot.volume == 12 && snapshot.muted == true)
        LGReadings.volume(["volumeStatus": ["volume": 30, "muteStatus": false]], into: &snapshot)
        #expect(snapshot.volume == 30 && snapshot.muted == false)
        LGReadings.volume(["volume": 900], into: &snapshot)
        #expect(snapshot.volume == 30)
    }
}
