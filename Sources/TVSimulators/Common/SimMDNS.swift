import Net
import Wire

/// What a simulated TV says about itself over DNS-SD (RFC 6763).
struct SimMDNSAdvert: Sendable {
    /// The TV's IPv4 address: its A record, and where answers leave from.
    var host: String
    /// `_androidtvremote2._tcp.local`, …: the types it answers for.
    var services: [DNSName]
    /// The instance's label ("Living Room TV").
    var instance: String
    /// The SRV target, `Android-<n>.local`.
    var hostName: DNSName
    var port: UInt16
    /// The TXT strings (`bt=<MAC>`).
    var txt: [String]

    /// The answer to a browse for `service`: PTR, with SRV, TXT and A as additionals, as an
    /// Android TV sends them.
    func answer(for service: DNSName) throws -> DNSMessage {
        let name = try DNSName(instance: instance, service: service)
        let address = host.split(separator: ".").compactMap { UInt8($0) }
        return DNSMessage.response(
            answers: [DNSRecord(name: service, type: .ptr, ttl: 4500, data: .ptr(name))],
            additionals: [
                DNSRecord(
                    name: name, type: .srv, cacheFlush: true, ttl: 120,
                    data: .srv(priority: 0, weight: 0, port: port, target: hostName)),
                DNSRecord(name: name, type: .txt, cacheFlush: true, ttl: 4500, data: .txt(txt.map { Array($0.utf8) })),
                DNSRecord(name: hostName, type: .a, cacheFlush: true, ttl: 120, data: .a(address)),
            ])
    }
}

/// Answering DNS-SD browses. The sockets are arranged as for SSDP (`SimHost.startSSDP`): a
/// shared `0.0.0.0:P` that a broadcast to 127.255.255.255:P reaches in every TV, and the TV's
/// own `host:P`, from which answers leave (the bridge follows only answers whose address
/// records name their sender). A TV on a loopback host answers loopback senders only, and it
/// joins no multicast group: tests never talk to the workplace network.
enum SimMDNS {
    static func answerQueries(
        on socket: UDPSocket, replyingFrom own: UDPSocket, _ advert: SimMDNSAdvert,
        silent: @escaping @Sendable () -> Bool
    ) async {
        let hostIsLoopback = (try? SocketAddress(ip: advert.host, port: 0))?.isLoopback ?? false
        while !Task.isCancelled {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(maxBytes: DNSMessage.maxBytes)
            } catch {
                if let error = error as? NetError, error.kind != .closed { continue }
                return
            }
            guard let query = try? DNSMessage(decoding: datagram.bytes), !query.isResponse else { continue }
            if hostIsLoopback && !datagram.from.isLoopback { continue }
            if silent() { continue }
            for question in query.questions where question.type == .ptr || question.type == .any {
                guard let service = advert.services.first(where: { $0 == question.name }),
                    let answer = try? advert.answer(for: service)
                else { continue }
                try? await own.send(answer.encoded(), to: datagram.from, deadline: .now + .seconds(1))
            }
        }
    }
}

extension SimHost {
    /// Answers DNS-SD browses on UDP `requested` (nil: no responder) while `silent()` is false.
    func startMDNS(on requested: UInt16?, _ advert: SimMDNSAdvert, silent: @escaping @Sendable () -> Bool) throws {
        guard let requested else { return }
        let (shared, own) = try bindShared(requested)
        noteMDNSPort(shared.localAddress.port)
        spawn { await SimMDNS.answerQueries(on: shared, replyingFrom: own, advert, silent: silent) }
        spawn { await SimMDNS.answerQueries(on: own, replyingFrom: own, advert, silent: silent) }
    }
}
