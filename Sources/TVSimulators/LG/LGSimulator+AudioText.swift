import Wire

/// Volume, mute, sound output, the on-screen keyboard and toasts.
extension LGSimulator {
    func audioOrText(_ path: String) -> Action? {
        switch path {
        case "audio/setVolume":
            return { _, payload, core throws(Failure) in
                let volume = try Self.int("volume", payload)
                guard (0...100).contains(volume) else { throw .refused("volume \(volume) is outside 0-100") }
                core.state.volume = volume
                return [:]
            }
        case "audio/volumeUp": return { _, _, core in Self.nudge(1, &core) }
        case "audio/volumeDown": return { _, _, core in Self.nudge(-1, &core) }
        case "audio/setMute":
            return { _, payload, core throws(Failure) in
                guard let value = payload["mute"] else { throw .refused("'mute' is required") }
                guard let mute = value.boolValue else { throw .badRequest }
                core.state.muted = mute
                return [:]
            }
        case "com.webos.service.apiadapter/audio/changeSoundOutput":
            return { _, payload, core throws(Failure) in
                let output = try Self.string("output", payload)
                guard LGCatalog.soundOutputs.contains(output) else {
                    throw .refused("unknown sound output '\(output)'")
                }
                core.state.soundOutput = output
                return [:]
            }
        case "com.webos.service.ime/insertText":
            return { _, payload, core throws(Failure) in
                let text = try Self.string("text", payload)
                let replace = payload["replace"].map { $0.intValue == 1 || $0.boolValue == true } ?? false
                core.state.text = replace ? text : core.state.text + text
                return [:]
            }
        case "com.webos.service.ime/deleteCharacters":
            return { _, payload, core throws(Failure) in
                let count = try Self.int("count", payload)
                guard count >= 0 else { throw .refused("count \(count) is negative") }
                core.state.text = String(core.state.text.dropLast(count))
                return [:]
            }
        case "com.webos.service.ime/sendEnterKey":
            return { _, _, core in
                core.state.submittedText = core.state.text
                core.state.text = ""
                return [:]
            }
        case "system.notifications/createToast":
            return { sim, payload, core throws(Failure) in try sim.toast(payload, &core) }
        default:
            return nil
        }
    }

    /// Longest toast message accepted, in characters (what tv2mqtt sends at most).
    static let toastLimit = 255

    private func toast(_ payload: [String: JSONValue], _ core: inout Core) throws(Failure) -> [String: JSONValue] {
        let message = try Self.string("message", payload)
        let trimmed = message.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .refused("the message is empty") }
        guard message.count <= Self.toastLimit else {
            throw .refused("the message is over \(Self.toastLimit) characters")
        }
        core.toasts += 1
        record("toast", ["message": .string(message)])
        return ["toastId": .string("com.webos.service.apiadapter-\(core.toasts)")]
    }

    /// ±1, kept within 0...100 (and unmuting, as the TV's own volume keys do).
    static func nudge(_ step: Int, _ core: inout Core) -> [String: JSONValue] {
        core.state.volume = min(100, max(0, core.state.volume + step))
        core.state.muted = false
        return [:]
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
