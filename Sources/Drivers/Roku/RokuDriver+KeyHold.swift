import Net
import TVModel

/// Held keys (README › MQTT topics and commands, `key`): `keydown`, the hold, `keyup`. The release
/// is tried whatever happened after the press: a failed or cancelled wait, a session that dropped
/// (the release then goes over HTTP), a bridge shutting down. A Roku keeps repeating a key that
/// never comes up.
extension RokuDriver {
    func hold(_ key: String, for duration: Duration, session: RokuECP2Session?) async throws(DriverError) {
        var failure: DriverError?
        do {
            try await keyEdge("down", key, session: session)
            try await EventLoop.sleep(for: duration)
        } catch let error as DriverError {
            failure = error
        } catch {
            failure = DriverError(.unreachable, "the held key \(key) was cut short (cancelled)")
        }
        // Not a child of this task: a cancelled command must still let the key go.
        let release = Task { () async -> DriverError? in
            do {
                try await self.release(key, session: session)
                return nil
            } catch let error as DriverError {
                return error
            } catch {
                return DriverError(.unreachable, "\(error)")
            }
        }
        if let error = await release.value {
            logger.warning("the held key \(key) could not be released: \(error.message)")
            throw failure ?? error
        }
        if let failure { throw failure }
    }

    /// `keyup` over the session the press used, else (or when it dropped) over HTTP.
    private func release(_ key: String, session: RokuECP2Session?) async throws(DriverError) {
        if let session {
            do {
                try await keyEdge("up", key, session: session)
                return
            } catch {
                logger.debug("keyup over ECP-2 failed (\(error.message)); trying HTTP")
            }
        }
        try await keyEdge("up", key, session: nil)
    }

    /// `key-down`/`key-up` over the session, `/keydown/<key>`/`/keyup/<key>` over HTTP.
    private func keyEdge(_ edge: String, _ key: String, session: RokuECP2Session?) async throws(DriverError) {
        if let session {
            _ = try await session.request("key-\(edge)", ["param-key": key])
        } else {
            try await ecp.command("/key\(edge)/\(key)")
        }
    }
}
