/// REST answers (`GET /api/v2/`) written from the field lists in reference/tv-protocols.md
/// §C.1 and public examples; identifiers are made up.
enum SamsungRESTSamples {
    /// A 2020 QLED with PowerState and token auth: the TV of HomeAssistantTests' Samples.
    static let q60 = #"""
        {"device":{"FrameTVSupport":"false","GamePadSupport":"true","ImeSyncedSupport":"true","Language":"en_GB",
        "OS":"Tizen","PowerState":"on","TokenAuthSupport":"true","VoiceSupport":"true","WallScreenRatio":"0",
        "WallService":"false","countryCode":"GB","description":"Samsung DTV RCR","developerIP":"0.0.0.0",
        "developerMode":"0","duid":"uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9","firmwareVersion":"Unknown",
        "id":"uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9","ip":"192.0.2.60","model":"20_MUSEL_UHD",
        "modelName":"QE55Q60TAUXXU","name":"[TV] Samsung Q60 Series (55)","networkType":"wireless",
        "resolution":"3840x2160","smartHubAgreement":"true","ssid":"home","type":"Samsung SmartTV",
        "udn":"uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9","wifiMac":"64:1C:AE:00:11:22"},
        "id":"uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9",
        "isSupport":"{\"DMP_DRM_PLAYREADY\":\"false\",\"DMP_DRM_WIDEVINE\":\"false\",\"DMP_available\":\"true\",\"EDEN_available\":\"true\",\"FrameTVSupport\":\"false\",\"ImeSyncedSupport\":\"true\",\"TokenAuthSupport\":\"true\",\"remote_available\":\"true\",\"remote_fourDirections\":\"true\",\"remote_touchPad\":\"true\",\"remote_voiceControl\":\"true\"}\n",
        "name":"[TV] Samsung Q60 Series (55)","remote":"1.0","type":"Samsung SmartTV",
        "uri":"http://192.0.2.60:8001/api/v2/","version":"2.0.25"}
        """#

    /// A 2016 TV: no PowerState, no token auth, a real firmware version, no duid.
    static let ku6400 = #"""
        {"device":{"FrameTVSupport":"false","GamePadSupport":"true","ImeSyncedSupport":"true","OS":"Tizen",
        "TokenAuthSupport":"false","VoiceSupport":"true","countryCode":"DE","description":"Samsung DTV RCR",
        "developerIP":"0.0.0.0","developerMode":"0","firmwareVersion":"T-JZMDEUC-1250.5",
        "id":"uuid:11112222-3333-4444-5555-666677778888","ip":"203.0.113.61","model":"16_JAZZM_UHD",
        "modelName":"UE49KU6400","name":"[TV] Samsung 6 Series (49)","networkType":"wired",
        "resolution":"3840x2160","smartHubAgreement":"true","type":"Samsung SmartTV",
        "udn":"uuid:11112222-3333-4444-5555-666677778888","wifiMac":"5c:49:7d:aa:bb:cc"},
        "id":"uuid:11112222-3333-4444-5555-666677778888","isSupport":"not json",
        "name":"[TV] Samsung 6 Series (49)","remote":"1.0","type":"Samsung SmartTV",
        "uri":"http://203.0.113.61:8001/api/v2/","version":"2.0.25"}
        """#

    /// A 2022 Frame in standby, with FrameTVSupport only inside isSupport (an object here).
    static let frame = #"""
        {"device":{"OS":"Tizen","PowerState":"standby","TokenAuthSupport":"true","duid":"uuid:FRAME-0001",
        "model":"22_PONTUSM_FTV","modelName":"QE55LS03BAUXXU","name":"The Frame","networkType":"wired",
        "wifiMac":"F4-7B-5E-01-02-03"},
        "id":"uuid:FRAME-0001","isSupport":{"FrameTVSupport":"true","TokenAuthSupport":"true"},
        "name":"The Frame","version":"2.0.25"}
        """#
}
