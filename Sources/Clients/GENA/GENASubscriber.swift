import Net
import Wire

/// Why a SUBSCRIBE, renewal or UNSUBSCRIBE failed.
public struct GENASubscribeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The publisher's status when it answered (412: the SID is unknown or expired, so a
    /// renewal must become a new subscription); nil when it did not answer.
    public let status: Int?
    public let message: String

    public var description: String { message }
}

/// Sends GENA subscription requests (UDA 1.1 §4.1) to one publisher over its HTTP client.
public struct GENASubscriber: Sendable {
    public let http: HTTPClient

    public init(http: HTTPClient) {
        self.http = http
    }

    /// `SUBSCRIBE` with `CALLBACK`, `NT` and `TIMEOUT`.
    public func subscribe(path: String, callback: String, timeoutSeconds: Int) async throws(GENASubscribeError)
        -> GENASubscribeAnswer
    {
        try await send(
            "SUBSCRIBE", path, GENA.subscribeHeaders(callback: callback, timeoutSeconds: timeoutSeconds))
    }

    /// `SUBSCRIBE` with `SID` and `TIMEOUT`: keeps the subscription alive.
    public func renew(path: String, sid: String, timeoutSeconds: Int) async throws(GENASubscribeError)
        -> GENASubscribeAnswer
    {
        try await send("SUBSCRIBE", path, GENA.renewHeaders(sid: sid, timeoutSeconds: timeoutSeconds))
    }

    /// `UNSUBSCRIBE` with `SID`, within `timeout` (it is sent while the bridge stops).
    public func unsubscribe(path: String, sid: String, timeout: Duration = .seconds(2)) async throws(GENASubscribeError)
    {
        let response = try await request("UNSUBSCRIBE", path, GENA.unsubscribeHeaders(sid: sid), timeout: timeout)
        guard response.isSuccess else {
            throw GENASubscribeError(status: response.status, message: "UNSUBSCRIBE \(path): HTTP \(response.status)")
        }
    }

    /// The local address of the connection to the publisher (the default callback host).
    public var localAddress: SocketAddress? {
        get async { await http.localAddress }
    }

    private func send(_ method: String, _ path: String, _ headers: HTTPHeaders) async throws(GENASubscribeError)
        -> GENASubscribeAnswer
    {
        let response = try await request(method, path, headers)
        guard response.isSuccess else {
            throw GENASubscribeError(status: response.status, message: "\(method) \(path): HTTP \(response.status)")
        }
        do {
            return try GENASubscribeAnswer(headers: response.headers)
        } catch {
            throw GENASubscribeError(status: response.status, message: "\(method) \(path): \(error.reason)")
        }
    }

    private func request(_ method: String, _ path: String, _ headers: HTTPHeaders, timeout: Duration? = nil)
        async throws(GENASubscribeError) -> HTTPResponse
    {
        do {
            return try await http.request(method, path, headers: headers, timeout: timeout)
        } catch {
            throw GENASubscribeError(status: nil, message: error.message)
        }
    }
}
