import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Samsung command steps", .cpuBound)
struct SamsungCommandStepsTests {
    /// A TV with no app table: keys, text, inputs, volume and power need none.
    static let planner = SamsungCommandPlanner(installed: [], known: [], configured: [:])

    @Test("a repeated key: clicks with a pause between them, none after the last")
    func repeated() throws {
        let click = SamsungRemoteStep.message(.key("KEY_VOLUP", .click))
        #expect(try SamsungCommandSteps.key(TVKey("volume_up"), repeat: 1) == .remote([click]))
        #expect(
            try SamsungCommandSteps.key(TVKey("KEY_VOLUP"), repeat: 3)
                == .remote([click, .pause(.milliseconds(250)), click, .pause(.milliseconds(250)), click]))
        #expect(try SamsungCommandSteps.key(TVKey("power_off"), repeat: 1) == .power(.off))
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.key(TVKey("home"), repeat: 0)) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.key(TVKey("home"), repeat: 21)) }
        #expect(throws: CommandRejection.self) { try SamsungCommandSteps.key(TVKey("KEY_FACTORY"), repeat: 1) }
    }

    @Test("text, input and launch steps")
    func steps() throws {
        #expect(try Self.planner.plan(.text("hi")) == .remote([.message(.text("hi")), .message(.textEnd)]))
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.text("")) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.text(String(repeating: "x", count: 256))) }
        #expect(try Self.planner.plan(.input("hdmi")) == .remote([.message(.key("KEY_HDMI", .click))]))
        #expect(
            SamsungCommandSteps.launch(appID: "111299001912")
                == [.message(.launch(appID: "111299001912", type: .deepLink, metaTag: ""))])
    }

    @Test("planning of whole commands: limits, keys, inputs")
    func validation() {
        #expect(throws: Never.self) { try Self.planner.plan(.key(TVKey("select"), repeat: 2)) }
        #expect(throws: Never.self) { try Self.planner.plan(.power(.toggle)) }
        #expect(throws: Never.self) { try Self.planner.plan(.volume(100)) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.volume(101)) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.key(TVKey("KEY_POWER"), repeat: 1)) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.input("HDMI9")) }
        #expect(throws: CommandRejection.self) { try Self.planner.plan(.text("")) }
    }
}
