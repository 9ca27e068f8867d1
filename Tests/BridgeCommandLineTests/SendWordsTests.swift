import TestSupport
import Testing

@testable import Bridge
@testable import BridgeCommandLine

/// How `tv2mqtt send` reads its words as [TV] COMMAND [ARG] (issue 19; the rule `send --help`
/// and the README state).
@Suite("send: [TV] COMMAND [ARG]")
struct SendWordsTests {
    typealias Words = SendCommand.Words
    static let commands = SendCommand.commandNames(.shipped)

    @Test("three words are TV COMMAND ARG, one word is COMMAND")
    func threeAndOne() {
        #expect(
            Words(["den", "key", "home"], names: [], commandNames: Self.commands)
                == Words(tv: "den", command: "key", argument: "home"))
        #expect(
            Words(["power", "key", "home"], names: [], commandNames: Self.commands)
                == Words(tv: "power", command: "key", argument: "home"))
        #expect(
            Words(["mute"], names: [], commandNames: Self.commands) == Words(tv: nil, command: "mute", argument: ""))
    }

    @Test("two words: COMMAND ARG when the first is a command name that no known TV is called")
    func commandAndArgument() {
        #expect(
            Words(["key", "home"], names: ["den"], commandNames: Self.commands)
                == Words(tv: nil, command: "key", argument: "home"))
        #expect(
            Words(["power", "off"], names: [], commandNames: Self.commands)
                == Words(tv: nil, command: "power", argument: "off"))
        #expect(
            Words(["text", "hello there"], names: [], commandNames: Self.commands)
                == Words(tv: nil, command: "text", argument: "hello there"))
    }

    @Test("two words: TV COMMAND when the first is not a command name, or a known TV is called that")
    func tvAndCommand() {
        #expect(
            Words(["den", "mute"], names: ["den"], commandNames: Self.commands)
                == Words(tv: "den", command: "mute", argument: ""))
        #expect(
            Words(["192.0.2.7", "mute"], names: [], commandNames: Self.commands)
                == Words(tv: "192.0.2.7", command: "mute", argument: ""))
        // A TV the user called "input": its name wins, as the user can still write `send input input hdmi1`.
        #expect(
            Words(["input", "mute"], names: ["input"], commandNames: Self.commands)
                == Words(tv: "input", command: "mute", argument: ""))
    }
}
