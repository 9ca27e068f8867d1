import TVModel
import Testing

@testable import Bridge

/// Each limit of a command's values is one constant (`TVCommand+Limits.swift`), and the
/// parser, the drivers and the entity table read that constant, never a number of their own.
@Suite("Command limits: one rule each")
struct CommandLimitsTests {
    static func launch(contentID: String) -> [UInt8] {
        Array(#"{"launch":{"app":"12","contentId":"\#(contentID)"}}"#.utf8)
    }

    @Test("a contentId is counted in characters, as deep links count it: 254 two-byte letters pass, 255 letters do not")
    func contentIDInCharacters() throws {
        let accented = String(repeating: "é", count: TVCommand.maxContentIDLength)
        let parsed = try CommandParser.parse(
            property: nil, payload: Self.launch(contentID: accented), controls: CommandParserTests.controls)
        #expect(parsed.commands == [.launch(appID: "12", contentID: accented, mediaType: nil)])
        let tooLong = String(repeating: "a", count: TVCommand.maxContentIDLength + 1)
        var message = ""
        do {
            _ = try CommandParser.parse(
                property: nil, payload: Self.launch(contentID: tooLong), controls: CommandParserTests.controls)
        } catch {
            message = error.message
        }
        #expect(message == "launch.contentId: must be 1 to 254 characters without control characters")
    }
}
