import TVModel

/// Checks a command against what an Android TV takes and resolves it into `AndroidTVAction`s.
/// Pure: nothing is sent.
struct AndroidTVPlanner {
    /// The apps that can be opened by name: id is the app link, name what the user says.
    var apps: [TVApp]
    /// The input method is on (`androidtv.ime`): text can be sent.
    var ime: Bool

    /// The inputs the TV takes as keys: `KEYCODE_TV_INPUT_HDMI_1`… and `KEYCODE_TV`.
    static let inputs: [(name: String, code: UInt64)] = [
        ("HDMI1", 243), ("HDMI2", 244), ("HDMI3", 245), ("HDMI4", 246), ("TV", 170),
    ]

    func plan(_ command: TVCommand) throws(CommandRejection) -> [AndroidTVAction] {
        switch command {
        case .key(let key, let count):
            switch try AndroidTVKeys.code(for: key) {
            case .code(let code): return [.keys(Array(repeating: code, count: count))]
            case .power(let action): return [.power(action)]
            }
        case .holdKey(let key, let milliseconds):
            guard case .code(let code) = try AndroidTVKeys.code(for: key) else {
                throw CommandRejection("hold_ms: \(key) cannot be held: it is the power logic, not a key")
            }
            return [.hold(code, milliseconds: milliseconds)]
        case .power(let action): return [.power(action)]
        case .app(let name): return [.appLink(try link(for: name))]
        case .launch(let appID, let contentID, _):
            guard contentID == nil else {
                throw CommandRejection(
                    "launch: Android TVs open content by app link; send the deep link as app (\"https://…\")")
            }
            return [.appLink(try link(for: appID))]
        case .text(let text):
            guard ime else {
                throw CommandRejection("text: the input method is off for this TV (androidtv.ime: false)")
            }
            return [.text(text)]
        case .input(let name):
            guard let input = Self.inputs.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                let names = Self.inputs.map(\.name).joined(separator: ", ")
                throw CommandRejection("input: '\(name)' is not an input an Android TV switches to by key (\(names))")
            }
            return [.keys([input.code])]
        case .volume(let percent): return [.volume(percent)]
        case .mute(let muted): return [.mute(muted)]
        case .channel:
            throw CommandRejection(
                "channel: an Android TV has no channel list for remote control; send channel_up, channel_down or the digits as keys"
            )
        case .search:
            throw CommandRejection("search: an Android TV has no search request; press the search key, then send text")
        case .control, .screen, .soundOutput, .toast:
            throw .notSupported(command)
        }
    }

    /// An app's link: by its name in the list (any case), or a link or package given as is.
    func link(for name: String) throws(CommandRejection) -> String {
        let lowered = name.lowercased()
        if let app = apps.first(where: { $0.name.lowercased() == lowered || $0.id == name }) { return app.id }
        if name.contains("://") { return name }
        if Self.isPackageName(name) { return "market://launch?id=" + name }
        let names = apps.map(\.name).joined(separator: ", ")
        throw CommandRejection(
            "app: unknown app '\(name)'; name one of \(names), or give an app link or a package name")
    }

    /// A link the TV can open (`scheme://…`, at most 2,048 bytes, no spaces or control
    /// characters), or a package name.
    static func isAppLink(_ text: String) -> Bool {
        if isPackageName(text) { return true }
        guard let scheme = text.firstRange(of: "://")?.lowerBound, scheme > text.startIndex,
            text.utf8.count <= 2048
        else { return false }
        return text[..<scheme].utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || $0 == UInt8(ascii: "+") }
            && text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }

    /// `com.netflix.ninja`: two or more dot-separated parts of letters, digits and `_`.
    static func isPackageName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && text.utf8.count <= 255
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy {
                        $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & ~0x20)
                    }
            }
    }
}
