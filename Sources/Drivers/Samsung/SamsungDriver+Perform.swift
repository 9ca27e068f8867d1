import TVModel

extension SamsungDriver {
    /// Carries out a plan. Remote-channel steps connect (and wait for the TV's approval) when
    /// needed.
    public func execute(_ plan: TVPlan) async throws(DriverError) {
        switch try plan.steps(as: SamsungAction.self) {
        case .remote(let steps):
            try await channel.send(steps)
        case .power(let action):
            try await powerConsideringArt(action)
        case .artMode(let on):
            try await setArtMode(on)
        case .launch(let appID, let type, let metaTag):
            try await launch(appID, type: type, metaTag: metaTag)
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
}
