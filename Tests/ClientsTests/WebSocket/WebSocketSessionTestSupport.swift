import Clients
import Synchronization
import Wire

/// A deterministic "random" source: 0, 1, 2, 3, … so each masking key is visibly fresh.
final class CountingRandom: Sendable {
    private let next = Mutex<UInt8>(0)

    func bytes(_ count: Int) -> [UInt8] {
        next.withLock { value in
            (0..<count).map { _ in
                defer { value &+= 1 }
                return value
            }
        }
    }
}

let sessionStart = ContinuousClock.now

func makeSession(
    _ role: WebSocketRole, _ configuration: WebSocketConfiguration = WebSocketConfiguration(),
    random: CountingRandom = CountingRandom()
) -> WebSocketSession {
    WebSocketSession(
        role: role, configuration: configuration, now: sessionStart, randomBytes: { random.bytes($0) })
}

/// Bytes a peer of `role`'s opposite would send: clients mask, servers do not.
func wire(_ frame: WebSocketFrame, from sender: WebSocketRole) -> [UInt8] {
    frame.encode(maskingKey: sender == .client ? [0x37, 0xFA, 0x21, 0x3D] : nil)
}

/// The frames inside the `.write` actions, decoded as the peer would.
func writtenFrames(_ actions: [WebSocketSessionAction], by writer: WebSocketRole) throws
    -> [WebSocketFrame]
{
    var parser = WebSocketFrameParser(role: writer == .client ? .server : .client)
    for case .write(let bytes) in actions { parser.append(bytes) }
    var frames: [WebSocketFrame] = []
    while let frame = try parser.next() { frames.append(frame) }
    return frames
}

extension [WebSocketSessionAction] {
    var closeReason: WebSocketCloseReason? {
        for case .closeTransport(let reason) in self { return reason }
        return nil
    }

    var delivered: [WebSocketIncoming] {
        compactMap { if case .deliver(let message) = $0 { message } else { nil } }
    }
}
