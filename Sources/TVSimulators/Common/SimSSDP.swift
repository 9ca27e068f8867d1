import Net
import Wire

/// What a simulated TV says about itself over SSDP.
struct SimSSDPAdvert: Sendable {
    var host: String
    var searchTarget: String
    var usn: String
    var location: String
    var server: String
    var maxAge: Int
    /// The simulator's `ssdpAnswerWindow` (nil: within MX, as UPnP says).
    var answerWindow: Duration?
}

/// The SSDP and Wake-on-LAN work every simulated TV shares (the arrangement of sockets and the
/// safety rules are described at `SimHost.startSSDP`).
enum SimSSDP {
    /// Sends NOTIFY ssdp:alive to `target` ("HOST:PORT", loopback only) from the TV's own
    /// address, so LOCATION and the datagram's source agree.
    static func announce(_ advert: SimSSDPAdvert, to text: String) async {
        guard let target = parseHostPort(text) else { return }
        guard target.isLoopback else {
            writeStandardError("tvsim: not sending NOTIFY to \(text): only loopback addresses are allowed")
            return
        }
        let notify = SSDPNotify(
            notificationType: advert.searchTarget, subtype: .alive, usn: advert.usn, location: advert.location,
            server: advert.server, maxAge: advert.maxAge, host: text)
        let socket: UDPSocket
        do {
            socket = try UDPSocket.bind(host: advert.host, port: 0)
        } catch {
            writeStandardError("tvsim: cannot send NOTIFY from \(advert.host): \(error)")
            return
        }
        defer { socket.close() }
        try? await socket.send(notify.encode(), to: target, deadline: .now + .seconds(1))
    }

    /// Answers searches arriving on `socket`, from `own`, until the socket closes. Each answer
    /// waits its random delay (`SSDPAnswerDelay`) in a task of its own, so one search's wait
    /// never holds back the next. A TV on a loopback host answers only loopback senders, and
    /// none while `silent()` (off, or stopped).
    static func answerSearches(
        on socket: UDPSocket, replyingFrom own: UDPSocket, _ advert: SimSSDPAdvert,
        silent: @escaping @Sendable () -> Bool
    ) async {
        let unicast = socket === own
        let hostIsLoopback = (try? SocketAddress(ip: advert.host, port: 0))?.isLoopback ?? false
        let response = SSDPResponse(
            searchTarget: advert.searchTarget, location: advert.location, usn: advert.usn, server: advert.server,
            maxAge: advert.maxAge)
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let datagram: (bytes: [UInt8], from: SocketAddress)
                do {
                    datagram = try await socket.receive(maxBytes: SSDPMessage.maxDatagramSize)
                } catch {
                    if let error = error as? NetError, error.kind != .closed { continue }
                    group.cancelAll()
                    return
                }
                guard case .search(let headers)? = try? SSDPMessage.parse(datagram.bytes),
                    let search = try? SSDPSearch(headers: headers), search.matches(advert.searchTarget)
                else { continue }
                if hostIsLoopback && !datagram.from.isLoopback { continue }
                if silent() { continue }
                let delay = SSDPAnswerDelay.random(for: search, unicast: unicast, window: advert.answerWindow)
                group.addTask {
                    if delay > .zero {
                        do { try await EventLoop.sleep(for: delay, clock: .system) } catch { return }
                    }
                    try? await own.send(response.encode(), to: datagram.from, deadline: .now + .seconds(1))
                }
            }
        }
    }

    /// Reads magic packets until the socket closes; `matched` gets those for one of `macs`
    /// (lowercase, colon-separated), with the sender. Anything else is ignored silently.
    static func listenForMagicPackets(
        on socket: UDPSocket, macs: [String], matched: @Sendable (String, SocketAddress) -> Void
    ) async {
        while !Task.isCancelled {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(maxBytes: 1024)
            } catch {
                if let error = error as? NetError, error.kind != .closed { continue }
                return
            }
            guard let mac = MagicPacket.parse(datagram.bytes)?.description.lowercased(), macs.contains(mac)
            else { continue }
            matched(mac, datagram.from)
        }
    }

    /// "127.0.0.1:1900" or "[::1]:1900" as an address; nil when malformed.
    static func parseHostPort(_ text: String) -> SocketAddress? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...])
        else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return try? SocketAddress(ip: host, port: port)
    }
}
