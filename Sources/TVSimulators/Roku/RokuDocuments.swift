import Wire

/// The XML documents a Roku serves, shaped like the captures in Tests/Fixtures/roku.
enum RokuDocuments {
    static let prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"

    private static func text(_ value: String) -> String { XMLEscaping.escapeText(value) }
    private static func attr(_ value: String) -> String { XMLEscaping.escapeAttribute(value) }

    /// `GET /`: the UPnP root description.
    static func root(_ identity: RokuIdentity, kind: RokuDeviceKind) -> String {
        let model = RokuCatalog.model(for: kind)
        return prolog + """
            <root xmlns="urn:schemas-upnp-org:device-1-0">
              <specVersion>
                <major>1</major>
                <minor>0</minor>
              </specVersion>
              <device>
                <deviceType>urn:roku-com:device:player:1-0</deviceType>
                <friendlyName>\(text(identity.name))</friendlyName>
                <manufacturer>Roku</manufacturer>
                <manufacturerURL>http://www.roku.com/</manufacturerURL>
                <modelDescription>Roku Streaming Player Network Media</modelDescription>
                <modelName>\(text(model.modelName))</modelName>
                <modelNumber>\(text(model.modelNumber))</modelNumber>
                <modelURL>http://www.roku.com/</modelURL>
                <serialNumber>\(text(identity.serial))</serialNumber>
                <UDN>uuid:\(text(identity.udn))</UDN>
                <serviceList>
                  <service>
                    <serviceType>urn:roku-com:service:ecp:1</serviceType>
                    <serviceId>urn:roku-com:serviceId:ecp1-0</serviceId>
                    <controlURL/>
                    <eventSubURL/>
                    <SCPDURL>ecp_SCPD.xml</SCPDURL>
                  </service>
                </serviceList>
              </device>
            </root>

            """
    }

    /// `GET /query/device-info`: the element set of device-info-7820x.xml.
    static func deviceInfo(
        _ identity: RokuIdentity, kind: RokuDeviceKind, state: RokuSimState, uptime: Int
    ) -> String {
        let power = state.power
        let model = RokuCatalog.model(for: kind)
        let isTV = kind == .tv
        let powerMode = power == .on ? "PowerOn" : (isTV ? "Ready" : "DisplayOff")
        var fields: [(String, String)] = [
            ("udn", identity.udn),
            ("serial-number", identity.serial),
            ("device-id", identity.deviceID),
            ("advertising-id", identity.udn),
            ("vendor-name", model.vendor),
            ("model-name", model.modelName),
            ("model-number", model.modelNumber),
            ("model-region", "US"),
            ("is-tv", String(isTV)),
            ("is-stick", String(!isTV)),
        ]
        if isTV { fields += [("screen-size", "55"), ("panel-id", "2"), ("tuner-type", "ATSC")] }
        fields += [
            ("supports-ethernet", String(isTV)),
            ("wifi-mac", identity.wifiMAC),
            ("wifi-driver", "realtek"),
        ]
        if isTV { fields.append(("ethernet-mac", identity.ethernetMAC)) }
        fields += [
            ("network-type", "wifi"),
            ("network-name", "SimulatedNetwork"),
            ("friendly-device-name", identity.name),
            ("friendly-model-name", model.friendlyModelName),
            ("default-device-name", "\(model.friendlyModelName) - \(identity.serial)"),
            ("user-device-name", identity.name),
            ("user-device-location", "Living room"),
            ("build-number", "CHD.50E04174A"),
            ("software-version", state.softwareVersion),
            ("software-build", "4174"),
            ("secure-device", "true"),
            ("ecp-setting-mode", state.ecpSettingMode),
            ("language", "en"),
            ("country", "US"),
            ("locale", "en_US"),
            ("time-zone-auto", "true"),
            ("time-zone", "US/Central"),
            ("time-zone-name", "United States/Central"),
            ("time-zone-tz", "America/Chicago"),
            ("time-zone-offset", "-300"),
            ("clock-format", "12-hour"),
            ("uptime", String(uptime)),
            ("power-mode", powerMode),
            ("supports-suspend", String(isTV)),
            ("supports-find-remote", String(!isTV)),
            ("find-remote-is-possible", "false"),
            ("supports-audio-guide", "true"),
            ("supports-rva", "true"),
            ("developer-enabled", "false"),
            ("keyed-developer-id", ""),
            ("search-enabled", "true"),
            ("search-channels-enabled", "true"),
            ("voice-search-enabled", "true"),
            ("notifications-enabled", "true"),
            ("notifications-first-use", "false"),
            ("supports-private-listening", "true"),
            ("headphones-connected", "false"),
            ("supports-warm-standby", String(isTV)),
            ("supports-ecs-textedit", "true"),
            ("supports-ecs-microphone", "true"),
            ("supports-wake-on-wlan", "true"),
            ("supports-airplay", "true"),
            ("has-play-on-roku", "true"),
            ("has-mobile-screensaver", "true"),
            ("support-url", "https://www.roku.com/support"),
            ("grandcentral-version", "10.3.47"),
            ("trc-version", "3.0"),
            ("trc-channel-version", "9.3.10"),
            ("davinci-version", "2.8.20"),
            ("has-wifi-extender", "false"),
            ("has-wifi-5G-support", "true"),
            ("can-use-wifi-extender", "true"),
        ]
        var out = prolog + "<device-info>\n"
        for (name, value) in fields {
            out += value.isEmpty ? "    <\(name)/>\n" : "    <\(name)>\(text(value))</\(name)>\n"
        }
        return out + "</device-info>\n"
    }

    private static func appElement(_ app: RokuCatalog.App, tag: String = "app") -> String {
        var attributes =
            "id=\"\(attr(app.id))\" type=\"\(attr(app.type))\" version=\"\(attr(app.version))\""
        if let subtype = app.subtype { attributes += " subtype=\"\(attr(subtype))\"" }
        return "<\(tag) \(attributes)>\(text(app.name))</\(tag)>"
    }

    /// `GET /query/apps`.
    static func apps(kind: RokuDeviceKind) -> String {
        prolog + "<apps>\n"
            + RokuCatalog.apps(for: kind).map { "    " + appElement($0) + "\n" }.joined()
            + "</apps>\n"
    }

    /// `GET /query/active-app`.
    static func activeApp(_ app: RokuCatalog.App, screensaver: Bool) -> String {
        var out = prolog + "<active-app>\n    " + appElement(app) + "\n"
        if screensaver {
            out +=
                "    <screensaver id=\"55545\" type=\"ssvr\" version=\"2.0.1\">Default screensaver</screensaver>\n"
        }
        return out + "</active-app>\n"
    }

    /// `GET /query/media-player`, like media-player-close.xml and media-player-pluto-play.xml.
    static func mediaPlayer(_ state: RokuSimState, app: RokuCatalog.App?) -> String {
        guard let app, app.type == "appl", state.mediaState != .close else {
            return prolog + "<player error=\"false\" state=\"close\"/>\n"
        }
        var out = prolog + "<player error=\"false\" state=\"\(state.mediaState.rawValue)\">\n"
        out +=
            "  <plugin bandwidth=\"10000000 bps\" id=\"\(attr(app.id))\" name=\"\(attr(app.name))\"/>\n"
        out +=
            "  <format audio=\"aac_adts\" captions=\"webvtt\" container=\"hls\" drm=\"none\" video=\"mpeg4_10b\"/>\n"
        let buffered = state.mediaState == .buffer ? "250" : "1000"
        out += "  <buffering current=\"\(buffered)\" max=\"1000\" target=\"0\"/>\n"
        out += "  <new_stream speed=\"128000 bps\"/>\n"
        out += "  <position>\(state.positionMS) ms</position>\n"
        if !state.isLive { out += "  <duration>\(state.durationMS) ms</duration>\n" }
        out += "  <is_live>\(state.isLive)</is_live>\n"
        out += "  <runtime>\(state.positionMS) ms</runtime>\n"
        return out + "</player>\n"
    }
}
