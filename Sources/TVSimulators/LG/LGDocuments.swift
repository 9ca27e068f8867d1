import Wire

/// The fixed documents a simulated LG answers with: the UPnP description (the shape of LG's
/// Connect SDK fixture), `hello`, and the system, software and network readings (the fields
/// aiowebostv and Home Assistant's diagnostics show real sets sending).
enum LGDocuments {
    static let searchTarget = "urn:lge-com:service:webos-second-screen:1"
    static let serverHeader = "WebOS/4.1.0 UPnP/1.0 webOSTV/1.0"

    static func description(_ identity: LGIdentity, plain: Bool) -> String {
        let uuid = identity.uuid
        let ports = plain ? "3000" : "3000-3001"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:dlna="urn:schemas-dlna-org:device-1-0">
            <specVersion><major>1</major><minor>0</minor></specVersion>
            <device>
            <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
            <friendlyName>\(XMLEscaping.escapeText(identity.name))</friendlyName>
            <manufacturer>LG Electronics</manufacturer>
            <manufacturerURL>http://www.lge.com</manufacturerURL>
            <modelDescription/>
            <modelName>\(XMLEscaping.escapeText(identity.modelName))</modelName>
            <modelURL>http://www.lge.com</modelURL>
            <modelNumber>WEBOS6</modelNumber>
            <serialNumber/>
            <UDN>\(identity.udn)</UDN>
            <serviceList>
            <service>
            <serviceType>\(searchTarget)</serviceType>
            <serviceId>urn:lge-com:serviceId:webos-second-screen-\(ports)</serviceId>
            <SCPDURL>/WebOS_SecondScreen/\(uuid)/scpd.xml</SCPDURL>
            <controlURL>/WebOS_SecondScreen/\(uuid)/control.xml</controlURL>
            <eventSubURL>/WebOS_SecondScreen/\(uuid)/event.xml</eventSubURL>
            </service>
            </serviceList>
            </device>
            </root>

            """
    }

    static func hello(_ identity: LGIdentity) -> JSONValue {
        [
            "protocolVersion": 1, "deviceType": "tv", "deviceOS": "webOS", "deviceOSVersion": "4.1.0",
            "deviceOSReleaseVersion": "6.0.0", "deviceUUID": .string(identity.uuid),
            "pairingTypes": ["PIN", "PROMPT", "COMBINED"],
        ]
    }

    static func systemInfo(_ identity: LGIdentity) -> [String: JSONValue] {
        [
            "modelName": .string(identity.modelName), "receiverType": "atsc",
            "features": ["3d": false, "dvr": true], "programMode": "false",
        ]
    }

    static func softwareInfo(_ identity: LGIdentity) -> [String: JSONValue] {
        [
            "product_name": "webOSTV 6.0", "model_name": "HE_DTV_W21O_AFABATAA", "sw_type": "FIRMWARE",
            "major_ver": "03", "minor_ver": "21.30", "country": "US", "country_group": "US",
            "device_id": .string(identity.wiredMAC), "auth_flag": "N", "ignore_disable": "N", "eco_info": "01",
            "config_key": "00", "language_code": "en-US",
        ]
    }

    static func connectionInfo(_ identity: LGIdentity, host: String) -> [String: JSONValue] {
        [
            "wiredInfo": [
                "state": "connected", "macAddress": .string(identity.wiredMAC), "ipAddress": .string(host),
                "interfaceName": "eth0", "method": "dhcp",
            ],
            "wifiInfo": ["state": "disconnected", "macAddress": .string(identity.wifiMAC)],
            "isInternetConnectionAvailable": false,
        ]
    }
}
