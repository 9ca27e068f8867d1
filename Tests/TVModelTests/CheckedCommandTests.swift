import Testing

@testable import TVModel

/// `TVCommand.checked()` is the one check of a command's limits, and the only way to make the
/// `CheckedCommand` a driver plans: the parser calls it, planners never check a range again.
@Suite("Checked commands: each rule once")
struct CheckedCommandTests {
    static func refusal(_ command: TVCommand) -> String? {
        do {
            _ = try command.checked()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a command within its limits is checked as it is; one outside them says which limit")
    func withinAndOutside() throws {
        #expect(try TVCommand.volume(100).checked().command == .volume(100))
        #expect(Self.refusal(.volume(101)) == "volume: expected a whole number from 0 to 100, got 101")
        #expect(Self.refusal(.key(TVKey("home"), repeat: 0))?.hasPrefix("repeat:") == true)
    }

    @Test("typed text: control characters are refused here, with the parser's words, for every vendor")
    func textControlCharacters() {
        #expect(Self.refusal(.text("a\nb")) == "text: control characters (newlines, NUL…) cannot be typed")
        #expect(Self.refusal(.text("a\u{0}b")) == "text: control characters (newlines, NUL…) cannot be typed")
        #expect(Self.refusal(.text("")) == "text: empty")
        #expect(Self.refusal(.text("harry potter")) == nil)
    }

    @Test("a deep link's contentId is checked once, here; its media type is the TV's planner's")
    func deepLink() {
        let long = String(repeating: "a", count: TVCommand.maxContentIDLength + 1)
        let message = "launch.contentId: must be 1 to 254 characters without control characters"
        #expect(Self.refusal(.launch(appID: "12", contentID: long, mediaType: nil)) == message)
        #expect(Self.refusal(.launch(appID: "12", contentID: "", mediaType: nil)) == message)
        #expect(Self.refusal(.launch(appID: "12", contentID: "a\u{0}b", mediaType: nil)) == message)
        let accented = String(repeating: "é", count: TVCommand.maxContentIDLength)
        #expect(Self.refusal(.launch(appID: "12", contentID: accented, mediaType: "movie")) == nil)
        #expect(Self.refusal(.launch(appID: "12", contentID: "x", mediaType: "song")) == nil)
    }
}
