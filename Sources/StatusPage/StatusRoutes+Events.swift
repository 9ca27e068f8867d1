import Net
import Support
import Wire

/// `GET api/events`: server-sent events (`state`, `tv`, `event`, `log`, `bridge`) and a
/// comment every `pingInterval`. The browser's EventSource reconnects by itself when the
/// stream ends (a bridge restart).
extension StatusRoutes {
    /// Whether the HTTP server should hand this connection over to `streamEvents`: a GET of
    /// `api/events` that passes the access checks. Refused ones are answered as plain requests.
    func isEventStream(_ request: HTTPRequest, from remote: SocketAddress) -> Bool {
        request.method == "GET" && Self.path(request) == "api/events" && misdirected(request) == nil
            && access(request, path: "api/events", from: remote) == .allowed && tooManyStreams(from: remote) == nil
    }

    var allStreamsTaken: String { "too many event streams open (\(limits.maxEventStreams))" }

    /// Why one more event stream from `remote` is refused, or nil (a race can fill the last
    /// slot between this check and the stream's opening: then `allStreamsTaken`).
    func tooManyStreams(from remote: SocketAddress) -> String? {
        if feed.streamCount >= limits.maxEventStreams { return allStreamsTaken }
        if let source = streamSource(remote), feed.streamCount(from: source) >= limits.maxEventStreamsPerSource {
            return "too many event streams from this address (\(limits.maxEventStreamsPerSource))"
        }
        return nil
    }

    /// The address a stream counts against: none for `http.allow_from` peers (the ingress
    /// gateway carries every user's streams).
    func streamSource(_ remote: SocketAddress) -> String? {
        settings.allowFrom.isEmpty ? remote.ip : nil
    }

    func streamEvents(_ request: HTTPRequest, to stream: any ByteStream, from remote: SocketAddress) async {
        guard let (id, messages) = feed.openStream(from: streamSource(remote)) else {
            let why = tooManyStreams(from: remote) ?? allStreamsTaken
            let response = Self.json(503, ["error": .string(why)])
            try? await stream.write(try response.encode(), deadline: LoopClock.current.now + .seconds(2))
            return
        }
        defer { feed.closeStream(id) }
        var head = HTTPResponse(status: 200)
        head.headers.set(name: "Content-Type", value: "text/event-stream")
        head.headers.set(name: "Cache-Control", value: "no-store")
        head.headers.set(name: "Connection", value: "close")
        // Behind nginx (and Home Assistant's ingress) a stream must not wait in a buffer.
        head.headers.set(name: "X-Accel-Buffering", value: "no")
        Self.addSecurityHeaders(&head)
        guard var bytes = try? head.encode() else { return }
        // `encode()` added Content-Length: 0, which would end the stream at once.
        bytes = Self.withoutContentLength(bytes)
        bytes.append(contentsOf: "retry: 2000\n\n".utf8)
        let ping = Task { [feed, limits] in
            while !Task.isCancelled {
                try? await EventLoop.sleep(for: limits.pingInterval)  // paced: the ping interval
                if Task.isCancelled { return }
                feed.ping(id)
            }
        }
        defer { ping.cancel() }
        do {
            try await stream.write(bytes, deadline: LoopClock.current.now + .seconds(5))
            for await message in messages {
                try await stream.write(Array(message.utf8), deadline: LoopClock.current.now + .seconds(10))
            }
        } catch {
            // The client went away or stopped reading: its stream ends, nothing else does.
        }
    }

    /// The head of an open-ended response: the `Content-Length` line removed.
    static func withoutContentLength(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).filter {
            !$0.lowercased().hasPrefix("content-length:")
        }
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
