import TVModel
import Testing

@testable import Bridge

@Suite("Channel commands parse")
struct CommandParserChannelTests {
    @Test("set/channel takes a number or the select's label; JSON takes a string or a whole number")
    func channel() throws {
        let plain = try CommandParser.parse(
            property: "channel", payload: Array(" 7.1 KQED\n".utf8), controls: CommandParserTests.controls)
        #expect(plain.commands == [.channel("7.1 KQED")])
        let json = try CommandParser.parse(
            property: nil, payload: Array(#"{"channel":"7.1"}"#.utf8), controls: CommandParserTests.controls)
        #expect(json.commands == [.channel("7.1")])
        let number = try CommandParser.parse(
            property: nil, payload: Array(#"{"channel":13}"#.utf8), controls: CommandParserTests.controls)
        #expect(number.commands == [.channel("13")])
        for payload in [#"{"channel":""}"#, #"{"channel":true}"#, #"{"channel":"7.1\n"}"#] {
            #expect(throws: CommandParseError.self, "\(payload)") {
                try CommandParser.parse(
                    property: nil, payload: Array(payload.utf8), controls: CommandParserTests.controls)
            }
        }
    }
}
