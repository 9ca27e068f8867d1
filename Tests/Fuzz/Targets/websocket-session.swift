// WebSocketSession, the pure protocol state machine the Samsung channel runs on: peer bytes in
// any split, with timer ticks between them. Whatever the peer sends, what the session writes
// back must be valid frames for the peer.
import Clients
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let role: WebSocketRole = input.selector(2) == 0 ? .client : .server
    var now = ContinuousClock.now
    let configuration = WebSocketConfiguration(
        maxFrameSize: 1024, maxMessageSize: 2048, keepAliveInterval: .seconds(1))
    // Fixed masking keys: determinism matters more here than unpredictability.
    var session = WebSocketSession(role: role, configuration: configuration, now: now) { count in
        [UInt8](repeating: 0x5A, count: count)
    }
    // The peer's parser checks what we send: masked from a client, unmasked from a server.
    var peer = WebSocketFrameParser(role: role == .client ? .server : .client, maxFrameSize: 1 << 20)
    for (index, chunk) in input.chunks.enumerated() {
        var actions = session.receive(Array(chunk), now: now)
        if index % 3 == 2 {
            now += .milliseconds(700)
            actions += session.tick(now: now)
        }
        for case .write(let bytes) in actions {
            peer.append(bytes)
            do throws(WireError) {
                while try peer.next() != nil {}
            } catch {
                fuzzExpect(false, "the session wrote an invalid frame: \(error)")
            }
        }
        if session.state == .closed {
            // Closed is final: nothing more is written or delivered.
            fuzzExpect(session.receive([0x81, 0x00], now: now).isEmpty, "activity after close")
            break
        }
    }
    return 0
}
