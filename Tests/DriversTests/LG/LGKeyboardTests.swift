import TVModel
import TVSimulators
import Testing
import Wire

@testable import Drivers

/// The on-screen keyboard beyond typing: deleting characters and submitting, as LG's input
/// method service offers them (`deleteCharacters`, `sendEnterKey`).
@Suite("LG keyboard: delete and enter")
struct LGKeyboardTests {
    @Test("BACKSPACE deletes as many characters as it is repeated; KEYBOARD_ENTER submits the text")
    func deleteAndEnter() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                try await driver.perform(.text("hello"))
                try await driver.perform(.key(.vendor("backspace"), repeat: 2))
                #expect(rig.simulator.state.text == "hel")
                try await driver.perform(.key(.vendor("KEYBOARD_ENTER"), repeat: 1))
                let state = rig.simulator.state
                #expect(state.submittedText == "hel")
                #expect(state.text.isEmpty)
            }
        }
    }
}
