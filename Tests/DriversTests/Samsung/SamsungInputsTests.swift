import Drivers
import TVModel
import Testing

/// The `input` select of a Samsung TV (`samsung.inputs`): defaults, configured sequences, and
/// what check-config refuses.
@Suite("Samsung inputs")
struct SamsungInputsTests {
    @Test("without configuration: only the keys every model year obeys, KEY_HDMI and KEY_SOURCE")
    func defaults() throws {
        let inputs = SamsungInputs()
        #expect(inputs.names == ["HDMI", "Source"])
        #expect(try inputs.steps(for: "hdmi") == [.message(.key("KEY_HDMI", .click))])
        #expect(try inputs.steps(for: "Source") == [.message(.key("KEY_SOURCE", .click))])
        #expect(throws: CommandRejection.self) { try inputs.steps(for: "HDMI1") }
    }

    @Test("configured: the names offered, and each one's keys with a pause between them")
    func configured() throws {
        let inputs = SamsungInputs(configured: [
            "HDMI 1": ["KEY_HDMI1"], "Apple TV": ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"],
        ])
        #expect(inputs.names == ["Apple TV", "HDMI 1"])
        #expect(try inputs.steps(for: "hdmi 1") == [.message(.key("KEY_HDMI1", .click))])
        #expect(
            try inputs.steps(for: "Apple TV") == [
                .message(.key("KEY_SOURCE", .click)), .pause(SamsungInputs.keyPause),
                .message(.key("KEY_RIGHT", .click)), .pause(SamsungInputs.keyPause),
                .message(.key("KEY_ENTER", .click)),
            ])
        #expect(throws: CommandRejection.self) { try inputs.steps(for: "HDMI") }
    }

    @Test(
        "check-config refuses keys off the allowlist, KEY_POWER, lowercase codes, empty or long lists",
        arguments: [
            (["X": ["KEY_POWER"]], "KEY_POWER"),
            (["X": ["KEY_FACTORY"]], "KEY_FACTORY"),
            (["X": ["KEY_NOPE"]], "allowlist"),
            (["X": ["key_hdmi1"]], "KEY_HDMI1"),
            (["X": []], "1 to 16 keys"),
            (["X": Array(repeating: "KEY_UP", count: 17)], "1 to 16 keys"),
            (["": ["KEY_UP"]], "1 to 64 characters"),
        ] as [([String: [String]], String)])
    func problems(table: [String: [String]], mentions: String) {
        let problem = SamsungInputs.problem(in: table) ?? ""
        #expect(problem.contains(mentions), "\(problem)")
    }

    @Test("check-config accepts a sensible table")
    func accepted() {
        #expect(SamsungInputs.problem(in: ["HDMI 1": ["KEY_HDMI1"], "TV": ["KEY_TV"]]) == nil)
    }
}
