import Glibc
import Harness
import TestSupport
import Testing

/// Every configuration file under examples/, and the Home Assistant add-on's default options,
/// is one `tv2mqtt check-config` accepts, so what a user copies never starts with an error.
@Suite("Example configurations")
struct ExampleConfigTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    static let root = TestFixtures.repositoryDirectory

    static func exampleConfigs() -> [String] {
        let directory = root + "/examples/config"
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".json") { files.append(directory + "/" + name) }
        }
        // The Home Assistant add-on hands its options file to `tv2mqtt run --config` as it is.
        return files.sorted() + [root + "/deploy/homeassistant-addon/options.json"]
    }

    @Test("there are example configurations to check")
    func examplesExist() {
        let count = Self.exampleConfigs().count
        #expect(count >= 3)
    }

    @Test("check-config accepts the example", arguments: exampleConfigs())
    func checkConfig(path: String) async throws {
        let result = try await ChildProcess.run(tv2mqtt, ["check-config", "--config", path])
        #expect(result.status == .exited(0), "\(path): \(result.error)")
        #expect(result.output.contains("\"mqtt\""))
    }
}
