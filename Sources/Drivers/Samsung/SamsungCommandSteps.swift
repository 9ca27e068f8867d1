import TVModel

/// Remote-channel steps for the commands `SamsungCommandPlanner` plans: keys, text and
/// launches (inputs: `SamsungInputs`). The command's limits were checked before it was
/// planned (`CheckedCommand`).
public enum SamsungCommandSteps {
    /// The pause between repeated clicks (`{"key":"KEY_VOLUP","repeat":5}`). Tizen drops keys
    /// that arrive in quick succession; samsungtvws waits 1 s, which makes a volume ramp slow. A
    /// quarter second is within what a person pressing a remote does.
    public static let repeatPause: Duration = .milliseconds(250)

    /// `key` clicked `repeat` times, with `repeatPause` between clicks; the power keys become
    /// the power logic.
    public static func key(_ key: TVKey, repeat count: Int, pause: Duration = repeatPause) throws(CommandRejection)
        -> SamsungAction
    {
        switch try SamsungKeys.resolve(key) {
        case .power(let action):
            return .power(action)
        case .remote(let code):
            var steps: [SamsungRemoteStep] = []
            for index in 0..<max(count, 0) {
                if index > 0 { steps.append(.pause(pause)) }
                steps.append(.message(.key(code, .click)))
            }
            return .remote(steps)
        }
    }

    /// Typing `text` into the on-screen keyboard: SendInputString, then SendInputEnd.
    public static func text(_ text: String) -> [SamsungRemoteStep] {
        [.message(.text(text)), .message(.textEnd)]
    }

    /// Launching an app by id, with the launch type its `app_type` calls for.
    public static func launch(appID: String, type: SamsungRemoteMessage.LaunchType = .deepLink, metaTag: String = "")
        -> [SamsungRemoteStep]
    {
        [.message(.launch(appID: appID, type: type, metaTag: metaTag))]
    }
}
