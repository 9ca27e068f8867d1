import Support
import TVModel
import Wire

/// Turns a command message into validated `TVCommand`s (README › MQTT topics and commands), or says
/// why it cannot.
///
/// `<base>/<tv>/set` takes a JSON object (`{"key":"VolumeUp","repeat":3}`, several commands
/// allowed); `<base>/<tv>/set/<property>` takes a plain payload (`ON`, `Netflix`, `25`).
/// Everything is checked here before anything is sent: the syntax by the parser, each value's
/// limits by `TVCommand.checked()`, once; vendor specifics (which keys exist, which apps are
/// installed) are checked by the TV's driver next.
public enum CommandParser {
    public static let maxPayloadBytes = 64 * 1024
    /// The properties a command may name, in the order a JSON command's are carried out: the
    /// list's (`CommandProperty`), a driver's declared controls right after `power`.
    public static func properties(_ controls: [DeclaredControl]) -> [String] {
        let names = CommandProperty.allCases.map(\.rawValue)
        return Array(names.prefix(1)) + usable(controls).map(\.key) + names.dropFirst()
    }

    /// The members a JSON command may have: the properties, a key's modifiers right after the
    /// key, and the transaction.
    static func jsonKeys(_ controls: [DeclaredControl]) -> [String] {
        properties(controls).flatMap { $0 == CommandProperty.key.rawValue ? [$0, "repeat", "hold_ms"] : [$0] }
            + ["transaction"]
    }

    /// The controls whose key names a command: valid, not a property of the list, each once.
    static func usable(_ controls: [DeclaredControl]) -> [DeclaredControl] {
        var taken = Set(CommandProperty.allCases.map(\.rawValue))
        return controls.filter { $0.hasValidKey && taken.insert($0.key).inserted }
    }

    /// - Parameter controls: every switch and select a vendor's driver may declare
    ///   (`Vendor.controls`): their keys are properties too; whether this TV has one is its
    ///   driver's to say.
    public static func parse(
        property: String?, payload: [UInt8], controls: [DeclaredControl]
    ) throws(CommandParseError) -> ParsedCommands {
        guard payload.count <= maxPayloadBytes else {
            throw CommandParseError(
                message: "payload of \(payload.count) bytes exceeds the \(maxPayloadBytes / 1024) KiB limit",
                transaction: nil)
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw CommandParseError(message: "payload is not valid UTF-8", transaction: nil)
        }
        let controls = usable(controls)
        if let property {
            if let control = controls.first(where: { $0.key == property }) {
                let command = try self.control(control, .string(trim(text)))
                return ParsedCommands(checked: [try checked(command)], transaction: nil)
            }
            return ParsedCommands(
                checked: [try checked(try parseProperty(property, text, controls: controls))], transaction: nil)
        }
        return try parseJSON(payload, controls: controls)
    }

    // MARK: set/<property>

    private static func parseProperty(
        _ property: String, _ text: String, controls: [DeclaredControl]
    ) throws(CommandParseError) -> TVCommand {
        func fail(_ message: String) -> CommandParseError { CommandParseError(message: message, transaction: nil) }
        let trimmed = trim(text)
        do {
            guard let known = CommandProperty(rawValue: property) else {
                let names = properties(controls).joined(separator: ", ")
                throw fail("unknown property '\(printable(property))' (known: \(names))")
            }
            switch known {
            case .power: return .power(try power(.string(trimmed)))
            case .key: return .key(try key(trimmed), repeat: 1)
            case .app: return .app(try name(trimmed, "app"))
            case .input: return .input(try name(trimmed, "input"))
            case .text: return .text(text)
            case .search: return .search(SearchRequest(keyword: text))
            case .volume: return .volume(try volume(.string(trimmed)))
            case .mute: return .mute(try onOff(.string(trimmed), "mute"))
            case .channel: return .channel(try name(trimmed, "channel"))
            case .screen: return .screen(try onOff(.string(trimmed), "screen"))
            case .soundOutput: return .soundOutput(try name(trimmed, "sound_output"))
            case .toast: return .toast(text)
            case .launch:
                let value = try JSONParser.parse(text, limits: JSONLimits(maxDepth: 4, maxBytes: maxPayloadBytes))
                return try launch(value)
            }
        } catch let error as CommandParseError {
            throw error
        } catch let error as WireError {
            throw fail("launch: \(error.reason)")
        } catch {
            throw fail("\(error)")
        }
    }

    // MARK: set (JSON)

    private static func parseJSON(
        _ payload: [UInt8], controls: [DeclaredControl]
    ) throws(CommandParseError) -> ParsedCommands {
        let value: JSONValue
        do {
            value = try JSONParser.parse(payload, limits: JSONLimits(maxDepth: 8, maxBytes: maxPayloadBytes))
        } catch {
            throw CommandParseError(
                message: "payload is not valid JSON (\(error.reason)); send an object such as {\"key\":\"home\"}",
                transaction: nil)
        }
        guard let members = value.objectValue else {
            throw CommandParseError(
                message: "expected a JSON object such as {\"key\":\"home\"}, got \(value.typeName)", transaction: nil)
        }
        let transaction = members["transaction"]
        func fail(_ message: String) -> CommandParseError {
            CommandParseError(message: message, transaction: transaction)
        }
        let jsonKeys = jsonKeys(controls)
        for key in members.keys.sorted() where !jsonKeys.contains(key) {
            let known = jsonKeys.filter { $0 != "transaction" }.joined(separator: ", ")
            throw fail("unknown command '\(printable(key))' (known: \(known))")
        }
        var commands: [CheckedCommand] = []
        func add(_ command: TVCommand) throws(CommandParseError) { commands.append(try checked(command)) }
        func member(_ property: CommandProperty) -> JSONValue? { members[property.rawValue] }
        do {
            if let value = member(.power) { try add(.power(try power(value))) }
            for control in controls {
                if let value = members[control.key] { try add(try self.control(control, value)) }
            }
            if let value = member(.screen) { try add(.screen(try onOff(value, "screen"))) }
            if let value = member(.input) { try add(.input(try name(try string(value, "input"), "input"))) }
            if let value = member(.app) { try add(.app(try name(try string(value, "app"), "app"))) }
            if let value = member(.launch) { try add(try launch(value)) }
            if let value = member(.volume) { try add(.volume(try volume(value))) }
            if let value = member(.mute) { try add(.mute(try onOff(value, "mute"))) }
            if let value = member(.soundOutput) {
                try add(.soundOutput(try name(try string(value, "sound_output"), "sound_output")))
            }
            if let value = member(.channel) { try add(.channel(try name(try channelText(value), "channel"))) }
            if let value = member(.key) {
                let pressed = try key(try string(value, "key"))
                if let hold = members["hold_ms"] {
                    try add(
                        .holdKey(pressed, milliseconds: try holdMilliseconds(hold, repeat: members["repeat"])))
                } else {
                    try add(.key(pressed, repeat: try repeatCount(members["repeat"])))
                }
            } else if members["repeat"] != nil || members["hold_ms"] != nil {
                throw fail("\(members["repeat"] != nil ? "repeat" : "hold_ms") needs a key")
            }
            if let value = member(.text) { try add(.text(try string(value, "text"))) }
            if let value = member(.search) { try add(.search(try search(value))) }
            if let value = member(.toast) { try add(.toast(try string(value, "toast"))) }
        } catch let error as CommandParseError {
            throw CommandParseError(message: error.message, transaction: transaction)
        } catch {
            throw fail("\(error)")
        }
        guard !commands.isEmpty else { throw fail("no command in the message") }
        return ParsedCommands(checked: commands, transaction: transaction)
    }

    // MARK: values

    private static func reject(_ message: String) -> CommandParseError {
        CommandParseError(message: message, transaction: nil)
    }

    private static func string(_ value: JSONValue, _ field: String) throws(CommandParseError) -> String {
        guard let text = value.stringValue else { throw reject("\(field): expected a string, got \(value.typeName)") }
        return text
    }

    /// A channel number may come as a JSON string ("7.1") or, for a whole number, as a number (13).
    private static func channelText(_ value: JSONValue) throws(CommandParseError) -> String {
        if let number = value.intValue { return String(number) }
        return try string(value, "channel")
    }

    private static func power(_ value: JSONValue) throws(CommandParseError) -> PowerAction {
        if let flag = value.boolValue { return flag ? .on : .off }
        guard let text = value.stringValue, let action = PowerAction(rawValue: text.uppercased()) else {
            throw reject("power: expected ON, OFF or TOGGLE, got \(describe(value))")
        }
        return action
    }

    private static func onOff(_ value: JSONValue, _ field: String) throws(CommandParseError) -> Bool {
        if let flag = value.boolValue { return flag }
        switch value.stringValue?.uppercased() {
        case "ON", "TRUE": return true
        case "OFF", "FALSE": return false
        default: throw reject("\(field): expected ON or OFF, got \(describe(value))")
        }
    }

    /// A declared control's value: a switch's as `onOff` reads it, a select's one of its options.
    private static func control(_ control: DeclaredControl, _ value: JSONValue) throws(CommandParseError)
        -> TVCommand
    {
        switch control.platform {
        case .switch:
            return .control(key: control.key, value: try onOff(value, control.key) ? "ON" : "OFF")
        case .select:
            let text = try string(value, control.key)
            guard control.options.contains(text) else {
                throw reject(
                    "\(control.key): expected one of \(control.options.joined(separator: ", ")), got \(describe(value))"
                )
            }
            return .control(key: control.key, value: text)
        }
    }

    private static func volume(_ value: JSONValue) throws(CommandParseError) -> Int {
        // A whole number; its range is the command's limit (`checked()`).
        let number = value.intValue ?? value.stringValue.flatMap { Int($0) }
        let range = TVCommand.volumeRange
        guard let number else {
            throw reject(
                "volume: expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(describe(value))"
            )
        }
        return number
    }

    private static func repeatCount(_ value: JSONValue?) throws(CommandParseError) -> Int {
        guard let value else { return 1 }
        let range = TVCommand.repeatRange
        guard let count = value.intValue else {
            throw reject(
                "repeat: expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(describe(value))"
            )
        }
        return count
    }

    /// Key names are letters, digits and underscores: vendor names (`VolumeUp`, `KEY_VOLUP`)
    /// and the shared vocabulary. Anything else (`../launch/12`, `%2F`, spaces) cannot be a key.
    private static func key(_ text: String) throws(CommandParseError) -> TVKey {
        guard !text.isEmpty, text.utf8.count <= TVKey.maxNameLength,
            text.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
            })
        else {
            throw reject("key: '\(printable(text))' is not a key name (letters, digits and _ only)")
        }
        return TVKey(text)
    }

    /// App and input names or ids: a `PrintableName`.
    private static func name(_ text: String, _ field: String) throws(CommandParseError) -> String {
        guard !text.isEmpty else { throw reject("\(field): empty") }
        guard PrintableName.isValid(text) else {
            throw reject("\(field): '\(printable(text))' is not a valid name (control characters or too long)")
        }
        return text
    }

    /// The command, checked against its limits (`TVCommand.checked()`, the one check).
    private static func checked(_ command: TVCommand) throws(CommandParseError) -> CheckedCommand {
        do {
            return try command.checked()
        } catch {
            throw reject(error.message)
        }
    }

    private static func launch(_ value: JSONValue) throws(CommandParseError) -> TVCommand {
        guard let members = value.objectValue else {
            throw reject("launch: expected an object such as {\"app\":\"12\",\"contentId\":\"…\"}")
        }
        for key in members.keys.sorted() where !["app", "contentId", "mediaType"].contains(key) {
            throw reject("launch: unknown field '\(printable(key))' (known: app, contentId, mediaType)")
        }
        guard let appValue = members["app"] else { throw reject("launch: needs an app") }
        let app = try name(try string(appValue, "launch.app"), "launch.app")
        var contentID: String?
        if let value = members["contentId"] { contentID = try string(value, "launch.contentId") }
        var mediaType: String?
        if let value = members["mediaType"] { mediaType = try string(value, "launch.mediaType") }
        return .launch(appID: app, contentID: contentID, mediaType: mediaType)
    }

    /// The value as it may appear in a message (Support's `printable`).
    static func printable(_ text: String) -> String { Support.printable(text) }

    private static func describe(_ value: JSONValue) -> String {
        if let text = value.stringValue { return "'\(printable(text))'" }
        return value.typeName == "number" ? value.serialized() : value.typeName
    }

    private static func trim(_ text: String) -> String {
        String(
            text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }.reversed().drop {
                $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t"
            }.reversed())
    }
}
