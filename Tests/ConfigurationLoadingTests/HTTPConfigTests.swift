import Configuration
import TestSupport
import Testing

@testable import Bridge
@testable import ConfigurationLoading

/// `http` (the status page): off by default, from every source, and never reachable from
/// other machines without a token.
@Suite("http (status page)")
struct HTTPConfigTests {
    @Test("off by default; listen and token from the file, the environment and the flags")
    func sources() throws {
        let none = try loadConfig()
        #expect(none.http.listen == nil)
        let file = try loadConfig(file: #"{"http":{"listen":"127.0.0.1:8099"}}"#)
        #expect(file.http.listen == HostPort(host: "127.0.0.1", port: 8099))
        let environment = try loadConfig(environment: [
            "TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099", "TV2MQTT_HTTP_TOKEN": "t0ken-of-22-characters",
        ])
        #expect(environment.http.listen == HostPort(host: "0.0.0.0", port: 8099))
        #expect(environment.http.token == "t0ken-of-22-characters")
        let flags = try loadConfig(
            ["--http-listen", "[::]:8099", "--http-token-file", "/token"],
            files: ["/token": "from-a-file-of-22-chars\n"])
        #expect(flags.http.listen == HostPort(host: "::", port: 8099))
        #expect(flags.http.token == "from-a-file-of-22-chars")
        let ingress = try loadConfig(environment: [
            "TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099", "TV2MQTT_HTTP_ALLOW_FROM": "198.51.100.2",
        ])
        #expect(ingress.http.allowFrom == ["198.51.100.2"])
    }

    @Test("a listen address other machines can reach, without a token, is refused and says why")
    func nonLoopbackNeedsToken() {
        let error = configError(environment: ["TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099"])
        #expect(error?.contains("TV2MQTT_HTTP_LISTEN") == true, "the error names where the value came from")
        #expect(error?.contains("http.token") == true)
        #expect(configError(file: #"{"http":{"listen":"203.0.113.5:8099"}}"#) != nil)
        #expect(configError(file: #"{"http":{"listen":"localhost:8099"}}"#) == nil)
        #expect(configError(file: #"{"http":{"listen":"[::1]:8099"}}"#) == nil)
        #expect(configError(file: #"{"http":{"listen":"nohost"}}"#)?.contains("http.listen") == true)
        #expect(configError(file: #"{"http":{"allow_from":["not an address"]}}"#)?.contains("allow_from") == true)
    }

    @Test("http.hosts from the file and the environment; a value that is no host name is refused by its key")
    func hosts() throws {
        let file = try loadConfig(file: #"{"http":{"listen":"127.0.0.1:8099","hosts":["TV2MQTT.lan"]}}"#)
        #expect(file.http.hosts == ["tv2mqtt.lan"])
        let environment = try loadConfig(environment: ["TV2MQTT_HTTP_HOSTS": "a.lan, b.lan"])
        #expect(environment.http.hosts == ["a.lan", "b.lan"])
        for bad in ["a.lan:8099", "http://a.lan", "", "a b"] {
            let error = configError(file: #"{"http":{"hosts":[""# + bad + #""]}}"#)
            #expect(error?.contains("http.hosts[0]") == true, "\(bad)")
        }
    }

    @Test("a token off loopback shorter than 128 bits (22 characters) is refused, naming http.token")
    func shortTokenOffLoopback() {
        let short = configError(environment: ["TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099", "TV2MQTT_HTTP_TOKEN": "a"])
        #expect(short?.contains("http.token") == true)
        #expect(short?.contains("22") == true, "the error says how long")
        #expect(short?.contains("TV2MQTT_HTTP_TOKEN") == true || short?.contains("http.token") == true)
        let almost = String(repeating: "x", count: 21)
        let enough = String(repeating: "x", count: 22)
        #expect(
            configError(environment: ["TV2MQTT_HTTP_LISTEN": "203.0.113.5:8099", "TV2MQTT_HTTP_TOKEN": almost]) != nil)
        #expect(configError(environment: ["TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099", "TV2MQTT_HTTP_TOKEN": enough]) == nil)
        #expect(configError(environment: ["TV2MQTT_HTTP_LISTEN": "127.0.0.1:8099", "TV2MQTT_HTTP_TOKEN": "a"]) == nil)
        let ingress = configError(environment: [
            "TV2MQTT_HTTP_LISTEN": "0.0.0.0:8099", "TV2MQTT_HTTP_ALLOW_FROM": "198.51.100.2", "TV2MQTT_HTTP_TOKEN": "a",
        ])
        #expect(ingress?.contains("http.token") == true)
    }

    @Test("the token is masked in the effective configuration")
    func masked() throws {
        let config = try loadConfig(environment: [
            "TV2MQTT_HTTP_LISTEN": "127.0.0.1:8099", "TV2MQTT_HTTP_TOKEN": "t0ken",
        ])
        let effective = config.effectiveJSON(vendors: .shipped).serialized()
        #expect(!effective.contains("t0ken"))
        #expect(config.effectiveJSON(vendors: .shipped)["http"]?["token"] == "***")
    }
}
