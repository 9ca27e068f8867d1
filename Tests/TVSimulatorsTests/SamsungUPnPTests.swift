import Clients
import Net
import TVSimulators
import Testing
import Wire

/// UPnP RenderingControl on the UPnP port.
@Suite struct SamsungUPnPTests {
    @Test func deviceDescriptionNamesRenderingControl() async throws {
        try await withSamsung { (sim, _, _) async throws in
            let client = HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
            let response = try await client.get("/dmr")
            await client.closeIdle()
            #expect(response.status == 200)
            let root = try XMLReader.parse(response.body)
            let device = try #require(root.firstChild(localName: "device"))
            #expect(
                device.firstChild(localName: "deviceType")?.trimmedText == "urn:schemas-upnp-org:device:MediaRenderer:1"
            )
            #expect(device.firstChild(localName: "UDN")?.trimmedText == sim.duid)
            let service = try #require(device.firstDescendant(localName: "service"))
            #expect(
                service.firstChild(localName: "serviceType")?.trimmedText
                    == "urn:schemas-upnp-org:service:RenderingControl:1")
            #expect(service.firstChild(localName: "controlURL")?.trimmedText == "/upnp/control/RenderingControl1")
        }
    }

    @Test func getAndSetVolumeAndMute() async throws {
        try await withSamsung { (sim, _, log) async throws in
            let get = try await upnp(sim, "GetVolume")
            #expect(get.status == 200)
            let current = try XMLReader.parse(get.body).firstDescendant(localName: "CurrentVolume")?.trimmedText
            #expect(current == String(sim.state.volume))

            let set = try await upnp(sim, "SetVolume", "<DesiredVolume>33</DesiredVolume>")
            #expect(set.status == 200)
            #expect(try XMLReader.parse(set.body).firstDescendant(localName: "SetVolumeResponse") != nil)
            #expect(sim.state.volume == 33)
            let volume = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "volume" }
            #expect(volume?["volume"] == 33)

            #expect(try await upnp(sim, "SetMute", "<DesiredMute>1</DesiredMute>").status == 200)
            #expect(sim.state.muted)
            let mute = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "mute" }
            #expect(mute?["muted"] == true)
            let getMute = try await upnp(sim, "GetMute")
            #expect(try XMLReader.parse(getMute.body).firstDescendant(localName: "CurrentMute")?.trimmedText == "1")
        }
    }

    @Test func faultsForBadArgumentsAndActions() async throws {
        try await withSamsung { (sim, _, _) async throws in
            let outOfRange = try await upnp(sim, "SetVolume", "<DesiredVolume>150</DesiredVolume>")
            #expect(outOfRange.status == 500)
            let fault = try XMLReader.parse(outOfRange.body)
            #expect(fault.firstDescendant(localName: "UPnPError") != nil)
            #expect(fault.firstDescendant(localName: "errorCode")?.trimmedText == "501")
            #expect(sim.state.volume != 150)

            let garbage = try await upnp(sim, "SetVolume", "<DesiredVolume>loud</DesiredVolume>")
            #expect(garbage.status == 500)
            #expect(try XMLReader.parse(garbage.body).firstDescendant(localName: "errorCode")?.trimmedText == "402")

            let unknown = try await upnp(sim, "SetLoudness", "<DesiredLoudness>1</DesiredLoudness>")
            #expect(unknown.status == 500)
            #expect(try XMLReader.parse(unknown.body).firstDescendant(localName: "errorCode")?.trimmedText == "401")
        }
    }

    @Test func upnpIsDownInStandby() async throws {
        try await withSamsung { (sim, _, _) async throws in
            try sim.apply(["power": "standby"])
            await #expect(throws: HTTPClientError.self) { _ = try await upnp(sim, "GetVolume") }
            try sim.apply(["power": "on"])
            #expect(try await upnp(sim, "GetVolume").status == 200)
        }
    }
}
