import TVModel

extension SamsungDriver {
    /// Carries out a command, validated again here so nothing unchecked reaches the TV.
    /// Remote-channel commands connect (and wait for the TV's approval) when needed.
    public func perform(_ command: TVCommand) async throws(DriverError) {
        do {
            try validate(command)
        } catch {
            throw DriverError(.rejected, error.message)
        }
        switch command {
        case .key(let key, let count):
            switch try rejecting({ () throws(CommandRejection) in try SamsungCommandSteps.key(key, repeat: count) }) {
            case .remote(let steps): try await channel.send(steps)
            case .power(let action): try await power(action)
            }
        case .power(let action):
            try await power(action)
        case .text(let text):
            try await channel.send(try rejecting({ () throws(CommandRejection) in try SamsungCommandSteps.text(text) }))
        case .input(let name):
            try await channel.send(
                try rejecting({ () throws(CommandRejection) in try SamsungCommandSteps.input(name) }))
        case .app(let name):
            let app = try rejecting({ () throws(CommandRejection) in try resolveApp(name) })
            try await launch(app.id, type: app.type, metaTag: "")
            noteLaunched(app.id)
        case .launch(let appID, let contentID, _):
            let type = state.withLock { $0.installed.first { $0.appID == appID }?.launchType } ?? .deepLink
            try await launch(appID, type: type, metaTag: contentID ?? "")
            noteLaunched(appID)
        case .volume(let level):
            _ = try await http.rendering(.setVolume(level))
        case .mute(let muted):
            _ = try await http.rendering(.setMute(muted))
        }
    }

    /// `ed.apps.launch` over the remote channel; when the channel cannot be used for a reason
    /// other than pairing (a refused port, no answer), `POST /api/v2/applications/<id>`.
    /// Never around a denied pairing or a changed certificate: those wait for the user.
    private func launch(_ appID: String, type: SamsungRemoteMessage.LaunchType, metaTag: String)
        async throws(DriverError)
    {
        do {
            try await channel.send(SamsungCommandSteps.launch(appID: appID, type: type, metaTag: metaTag))
        } catch  where error.kind == .unreachable || error.kind == .timeout {
            logger.debug("remote channel launch failed (\(error.message)); trying REST")
            try await http.launch(appID)
        }
    }

    private func rejecting<Value>(_ body: () throws(CommandRejection) -> Value) throws(DriverError) -> Value {
        do {
            return try body()
        } catch {
            throw DriverError(.rejected, error.message)
        }
    }
}
