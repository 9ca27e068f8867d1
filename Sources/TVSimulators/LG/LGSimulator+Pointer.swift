import Clients
import Net
import Wire

/// The pointer input socket (`getPointerInputSocket`'s `socketPath`): text frames of
/// `key:value` lines ending with an empty line, never answered (LG's Connect SDK
/// `WebOSTVMouseSocketConnection`, aiowebostv's `button`). Buttons are logged as kind `button`,
/// pointer moves as kind `pointer`.
extension LGSimulator {
    func pointerSocket(_ request: HTTPRequest, stream: any ByteStream, leftover: [UInt8]) async {
        guard
            let accepted = try? await WebSocketServerHandshake.upgrade(
                stream: stream, request: request, leftover: leftover)
        else { return }
        for await event in accepted.connection.incoming {
            guard case .text(let text) = event else {
                if case .closed = event { break }
                continue
            }
            pointerFrame(text)
        }
    }

    private func pointerFrame(_ text: String) {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        switch fields["type"] {
        case "button":
            guard let name = fields["name"], !name.isEmpty else {
                record("pointer", ["refused": "malformed"])
                return
            }
            button(name)
        case let type? where ["move", "click", "scroll"].contains(type):
            record("pointer", ["type": .string(type)])
        default:
            record("pointer", ["refused": "malformed"])
        }
    }

    private func button(_ name: String) {
        core.withLock { core in
            var entry: [String: JSONValue] = ["name": .string(name)]
            if !LGCatalog.buttons.contains(name) { entry["known"] = false }
            guard core.state.power.isOn else {
                entry["standby"] = true
                record("button", entry)
                return
            }
            record("button", entry)
            switch name {
            case "VOLUMEUP": _ = Self.nudge(1, &core)
            case "VOLUMEDOWN": _ = Self.nudge(-1, &core)
            case "MUTE": core.state.muted.toggle()
            case "CHANNELUP": _ = Self.step(1, &core)
            case "CHANNELDOWN": _ = Self.step(-1, &core)
            case "HOME": core.state.appID = LGCatalog.homeApp
            case "POWER": turnOff(&core)
            default: break
            }
            if name != "POWER", core.state.power != .active { setPower(.active, &core) }
            publish(&core)
        }
    }
}
