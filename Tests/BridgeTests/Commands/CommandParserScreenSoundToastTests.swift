import TVModel
import TestSupport
import Testing

@testable import Bridge

/// `screen`, `sound_output` and `toast`, as `set/<property>` and in the JSON `set`:
/// what parses, and a clear refusal for everything else.
@Suite("Command parsing: screen, sound output, toast", .cpuBound)
struct CommandParserScreenSoundToastTests {
    private func parse(_ property: String?, _ text: String) throws -> [TVCommand] {
        try CommandParser.parse(property: property, payload: Array(text.utf8), controls: CommandParserTests.controls)
            .commands
    }

    private func refusal(_ property: String?, _ text: String) -> String? {
        do {
            _ = try CommandParser.parse(
                property: property, payload: Array(text.utf8), controls: CommandParserTests.controls)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("plain and JSON forms parse; a toast keeps its spaces and line breaks; the order is fixed")
    func forms() throws {
        #expect(try parse("screen", "off\n") == [.screen(false)])
        #expect(try parse("screen", "ON") == [.screen(true)])
        #expect(try parse("sound_output", " external_arc ") == [.soundOutput("external_arc")])
        #expect(try parse("toast", " Dinner\nis ready ") == [.toast(" Dinner\nis ready ")])
        let longest = String(repeating: "é", count: TVCommand.maxToastLength)
        #expect(try parse("toast", longest) == [.toast(longest)])
        #expect(
            try parse(nil, #"{"toast":"hi","sound_output":"tv_speaker","screen":false}"#)
                == [.screen(false), .soundOutput("tv_speaker"), .toast("hi")])
        for property in ["screen", "sound_output", "toast"] {
            #expect(CommandParser.properties([]).contains(property))
        }
    }

    @Test(
        "bad values are refused with what was expected",
        arguments: [
            ("screen", "dim", "screen: expected ON or OFF, got 'dim'"),
            ("screen", "", "screen: expected ON or OFF, got ''"),
            ("sound_output", "", "sound_output: empty"),
            ("sound_output", "tv\u{7}speaker", "sound_output: 'tv\\u{7}speaker' is not a valid name"),
            ("toast", "", "toast: empty"),
            ("toast", String(repeating: "x", count: 256), "toast: 256 characters exceeds the limit of 255"),
            ("toast", "bell\u{7}", "toast: control characters other than line breaks cannot be shown"),
            ("toast", "a\r\nb", "toast: control characters other than line breaks cannot be shown"),
        ])
    func plainRefusals(property: String, payload: String, expected: String) {
        let message = refusal(property, payload)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "accepted")")
    }

    @Test(
        "bad JSON values are refused the same way",
        arguments: [
            (#"{"screen":"blank"}"#, "screen: expected ON or OFF, got 'blank'"),
            (#"{"sound_output":3}"#, "sound_output: expected a string, got number"),
            (#"{"toast":true}"#, "toast: expected a string, got boolean"),
            (#"{"toast":""}"#, "toast: empty"),
        ])
    func jsonRefusals(payload: String, expected: String) {
        let message = refusal(nil, payload)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "accepted")")
    }
}
