// MQTT command payloads: CommandParser.parse(property:payload:controls:), for `<tv>/set` (JSON) and
// every `<tv>/set/<property>` (plain text), plus an unknown property.

import TVModel

@testable import Bridge

/// A control as a driver declares one (the Samsung art mode switch's shape).
private let controls = [DeclaredControl(key: "art_mode", platform: .switch, name: "Art mode")]
private let properties: [String?] =
    [nil, nil, nil] + CommandParser.properties(controls).map(Optional.some) + ["bogus"]

/// C0 and C1 controls and the Unicode line separators: what must never reach a log line.
private func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let property = properties[input.selector(properties.count)]
    let parsed: ParsedCommands
    do throws(CommandParseError) {
        parsed = try CommandParser.parse(property: property, payload: input.bytes, controls: controls)
    } catch {
        // Refusals are logged and published: the sender's text must not break the line.
        fuzzExpect(!hasControl(error.message), "control character in \(String(reflecting: error.message))")
        return 0
    }
    // Everything the parser lets through is within the bounds `TVCommand+Limits` promises the drivers.
    fuzzExpect(!parsed.commands.isEmpty, "no command")
    for command in parsed.commands {
        switch command {
        case .volume(let volume): fuzzExpect(TVCommand.volumeRange.contains(volume), "volume \(volume)")
        case .key(let key, let count):
            fuzzExpect(TVCommand.repeatRange.contains(count), "repeat \(count)")
            fuzzExpect(!key.description.isEmpty && !hasControl(key.description), "key \(key)")
        case .text(let text):
            fuzzExpect(!text.isEmpty && text.count <= TVCommand.maxTextLength && !hasControl(text), "text \(text)")
        case .app(let name), .input(let name), .channel(let name):
            fuzzExpect(!name.isEmpty && !hasControl(name), "name \(name)")
        case .holdKey(let key, let milliseconds):
            fuzzExpect(TVCommand.holdRange.contains(milliseconds), "hold_ms \(milliseconds)")
            fuzzExpect(!key.description.isEmpty && !hasControl(key.description), "key \(key)")
        case .search(let request):
            fuzzExpect(request.limitViolation == nil, "search \(request)")
            fuzzExpect(!request.keyword.isEmpty && !hasControl(request.keyword), "search \(request.keyword)")
        case .launch(let app, let content, _):
            fuzzExpect(!hasControl(app) && !hasControl(content ?? ""), "launch \(command)")
        case .soundOutput(let name):
            fuzzExpect(!name.isEmpty && !hasControl(name), "sound_output \(name)")
        case .toast(let message):
            fuzzExpect(TVCommand.toast(message).limitViolation == nil, "toast length \(message.count)")
            fuzzExpect(!hasControl(message.replacing("\n", with: " ")), "toast \(message)")
        case .control(let key, let value):
            fuzzExpect(key == "art_mode" && DeclaredControl.switchValues.contains(value), "control \(command)")
        case .power, .mute, .screen: break
        }
    }
    return 0
}
