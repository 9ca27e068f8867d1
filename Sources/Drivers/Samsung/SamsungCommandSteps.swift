import TVModel

/// What a key command becomes: remote-channel steps, or the power logic.
public enum SamsungKeyPlan: Equatable, Sendable {
    case remote([SamsungRemoteStep])
    case power(PowerAction)
}

/// Turns validated commands into remote-channel steps, so the driver only routes them.
/// App launches stay with the driver: they need its app table (installed or configured).
public enum SamsungCommandSteps {
    /// The pause between repeated clicks (`{"key":"KEY_VOLUP","repeat":5}`). Tizen drops keys
    /// that arrive back to back; samsungtvws waits 1 s, which makes a volume ramp slow. A
    /// quarter second is within what a person pressing a remote does.
    public static let repeatPause: Duration = .milliseconds(250)
    /// Text longer than this is refused (the `keyboard` entity's max, SPEC §5).
    public static let maxTextLength = 255

    /// `key` clicked `repeat` times (1…20), with `repeatPause` between clicks.
    public static func key(_ key: TVKey, repeat count: Int, pause: Duration = repeatPause) throws(CommandRejection)
        -> SamsungKeyPlan
    {
        guard (1...20).contains(count) else { throw CommandRejection("repeat must be 1 to 20, got \(count)") }
        switch try SamsungKeys.resolve(key) {
        case .power(let action):
            return .power(action)
        case .remote(let code):
            var steps: [SamsungRemoteStep] = []
            for index in 0..<count {
                if index > 0 { steps.append(.pause(pause)) }
                steps.append(.message(.key(code, .click)))
            }
            return .remote(steps)
        }
    }

    /// Typing `text` into the on-screen keyboard: SendInputString, then SendInputEnd.
    public static func text(_ text: String) throws(CommandRejection) -> [SamsungRemoteStep] {
        guard !text.isEmpty else { throw CommandRejection("text must not be empty") }
        guard text.count <= maxTextLength else {
            throw CommandRejection("text is \(text.count) characters; at most \(maxTextLength)")
        }
        return [.message(.text(text)), .message(.textEnd)]
    }

    /// Switching to an input of `SamsungDeviceInfo.inputs`.
    public static func input(_ name: String) throws(CommandRejection) -> [SamsungRemoteStep] {
        [.message(.key(try SamsungKeys.inputKey(name), .click))]
    }

    /// Launching an app by id, with the launch type its `app_type` calls for.
    public static func launch(appID: String, type: SamsungRemoteMessage.LaunchType = .deepLink, metaTag: String = "")
        -> [SamsungRemoteStep]
    {
        [.message(.launch(appID: appID, type: type, metaTag: metaTag))]
    }

    /// Checks the commands this layer knows how to carry out; app names, volume and mute
    /// are the driver's (its app table, UPnP). Nothing is sent.
    public static func validate(_ command: TVCommand) throws(CommandRejection) {
        switch command {
        case .key(let key, let count): _ = try self.key(key, repeat: count)
        case .text(let text): _ = try self.text(text)
        case .input(let name): _ = try input(name)
        case .volume(let level):
            guard (0...100).contains(level) else { throw CommandRejection("volume must be 0 to 100, got \(level)") }
        case .power, .mute, .app, .launch: break
        }
    }
}
