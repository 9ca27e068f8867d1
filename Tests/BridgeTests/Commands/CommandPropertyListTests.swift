import HomeAssistant
import TVModel
import Testing

@testable import Bridge

/// The command property names (`<tv>/set/<property>` and the members of a `<tv>/set` JSON
/// command) are one list, `CommandProperty`: the parser reads it, a command names itself
/// with it, and the entity table's command topics take it.
@Suite("Command properties: one list")
struct CommandPropertyListTests {
    @Test("the parser knows every property of the list, and no other")
    func parserUsesTheList() {
        #expect(CommandParser.properties([]) == CommandProperty.allCases.map(\.rawValue))
        // The JSON members are the same list in the same order, with a key's modifiers and the
        // transaction: one list, not a second one beside it.
        let members = CommandParser.jsonKeys([]).filter { !["repeat", "hold_ms", "transaction"].contains($0) }
        #expect(members == CommandProperty.allCases.map(\.rawValue))
    }

    @Test("every entity that sends a command sends it to a property of the list")
    func entityTableUsesTheList() {
        let rows = EntityTable.tv + EntityTable.bridge
        let properties = rows.compactMap { row -> CommandProperty? in
            guard case .tvSet(let property) = row.command else { return nil }
            return property
        }
        #expect(properties.count >= 10, "\(properties.count) rows send a TV command")
    }

    @Test("a command's name is its property")
    func commandNames() {
        #expect(TVCommand.holdKey(TVKey("up"), milliseconds: 500).property == .key)
        #expect(TVCommand.toast("hello").name == CommandProperty.toast.rawValue)
        #expect(TVCommand.soundOutput("tv_speaker").property == .soundOutput)
        #expect(TVCommand.control(key: "art_mode", value: "ON").name == "art_mode")
    }
}
