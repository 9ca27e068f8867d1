import Drivers
import TVModel
import TestSupport
import Testing

/// `screen`, `sound_output` and `toast` are for TVs that declare them: the planners
/// of the vendors that cannot carry them out refuse them before anything is sent.
@Suite("Planners refuse screen, sound_output and toast", .cpuBound)
struct UnsupportedCommandsTests {
    static let commands: [TVCommand] = [.screen(false), .soundOutput("external_arc"), .toast("hello")]

    static func refusal(_ plan: () throws(CommandRejection) -> Void) -> String? {
        do {
            try plan()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a Roku and a Samsung say the command is not supported by this TV", arguments: commands)
    func rokuAndSamsung(command: TVCommand) {
        let roku = RokuCommandPlanner(capabilities: TVCapabilities(power: true), apps: [])
        let samsung = SamsungCommandPlanner(installed: [], known: [], configured: [:])
        let expected = "\(command.name) is not supported by this TV"
        let rokuMessage = Self.refusal { () throws(CommandRejection) in _ = try roku.plan(command) }
        let samsungMessage = Self.refusal { () throws(CommandRejection) in _ = try samsung.plan(command) }
        #expect(rokuMessage == expected)
        #expect(samsungMessage == expected)
    }

    @Test("a pre-2016 Samsung says its protocol sends keys only", arguments: commands)
    func legacy(command: TVCommand) {
        let message = Self.refusal { () throws(CommandRejection) in
            _ = try SamsungLegacyPlanner.plan(command, macs: [])
        }
        #expect(
            message
                == "\(command.name) is not available on a pre-2016 Samsung: its legacy remote protocol sends keys only")
    }
}
