import MQTTInterface
import TVModel
import Testing

/// Every topic is built and read by `Topics`; routing must never take another instance's or
/// the bridge's own topics for a TV's commands.
@Suite("Topics")
struct TopicsTests {
    let topics = Topics(base: "tv2mqtt")

    @Test("commands, requests and Home Assistant's status are routed; everything else is not")
    func routing() {
        #expect(topics.route("tv2mqtt/living_room/set") == .command(tv: "living_room", property: nil))
        #expect(topics.route("tv2mqtt/living_room/set/key") == .command(tv: "living_room", property: "key"))
        #expect(topics.route("tv2mqtt/bridge/request/tv/add") == .request("tv/add"))
        #expect(topics.route("homeassistant/status") == .homeAssistantStatus)
        let ignored = [
            "tv2mqtt/bridge/request/", "tv2mqtt/bridge/set", "tv2mqtt//set", "tv2mqtt/living_room/state",
            "tv2mqtt/living_room/set/key/extra", "tv2mqttx/living_room/set", "other/living_room/set",
            "tv2mqtt/floor2/living_room/set",
        ]
        for topic in ignored {
            #expect(topics.route(topic) == nil, "\(topic)")
        }
    }

    @Test("a nested instance's topics are not ours, level by level")
    func ownership() {
        #expect(topics.isOwn("tv2mqtt/living_room/state", node: "living_room"))
        #expect(topics.isOwn("tv2mqtt/living_room/set/key", node: "living_room"))
        #expect(topics.isOwn("tv2mqtt/bridge/state", node: "living_room"))
        #expect(topics.isOwn("tv2mqtt/bridge/request/tv/add", node: "living_room"))
        #expect(!topics.isOwn("tv2mqtt/floor2/living_room/state", node: "living_room"))
        #expect(!topics.isOwn("tv2mqtt/kitchen/state", node: "living_room"))
        #expect(!topics.isOwn("tv2mqtt/living_room//state", node: "living_room"))
    }

    @Test("a TV's topics are under its id; the id 'bridge' would collide with the bridge's")
    func building() throws {
        let id = try #require(TVID("living_room"))
        #expect(topics.state(id) == "tv2mqtt/living_room/state")
        #expect(topics.set(id, "volume") == "tv2mqtt/living_room/set/volume")
        #expect(topics.event(id) == "tv2mqtt/living_room/event")
        #expect(topics.bridgeResponse("tv/add") == "tv2mqtt/bridge/response/tv/add")
        #expect(Topics.collidesWithBridgeTopics("bridge"))
        #expect(!Topics.collidesWithBridgeTopics("bridge2"))
        #expect(topics.subscriptions.contains("tv2mqtt/+/set/+"))
    }
}
