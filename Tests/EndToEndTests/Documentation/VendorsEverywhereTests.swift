import Drivers
import Harness
import TestSupport
import Testing

/// Every place a user reads kinds, ports, pairing or wake settings from names every vendor
/// tv2mqtt ships (`[Vendor].shipped`, the list of its `main.swift`; issue 40): the README's
/// tables, setup steps and common problems, `--help`, the Home Assistant add-on's schema,
/// description and DOCS.md, and `examples/config/full.json`. So a vendor added to the list
/// without a word in one of them fails here, naming the place.
@Suite("Every vendor in the README, --help, the add-on and the example configuration")
struct VendorsEverywhereTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")
    static let root = LogLineTableTests.root

    /// The manufacturers of the vendors whose TVs pair, each once ("Samsung", "LG").
    static var pairingManufacturers: [String] { manufacturers([Vendor].shipped.filter(\.pairs)) }

    static func manufacturers(_ vendors: [Vendor]) -> [String] {
        var seen: Set<String> = []
        return vendors.map(\.manufacturer).filter { seen.insert($0).inserted }
    }

    /// The setting a wake hint names: "LG: Turn on via Wi-Fi (Mobile TV On)" → "Turn on via Wi-Fi".
    static func wakeSetting(_ hint: String) -> String {
        let afterVendor = hint.firstRange(of: ": ").map { String(hint[$0.upperBound...]) } ?? hint
        return afterVendor.firstRange(of: " (").map { String(afterVendor[..<$0.lowerBound]) } ?? afterVendor
    }

    @Test("README › Command line: --tv names every kind")
    func commandLineTable() throws {
        let section = try Self.readmeSection("## Command line")
        let escaped = [Vendor].shipped.addressPrefixHelp.split(separator: "|").joined(separator: "\\|")
        let written = "`--tv \(escaped)HOST[:PORT]`"
        #expect(section.contains(written), "README › Command line has no \(written)")
    }

    @Test("README › Command line: pair names every vendor that pairs")
    func pairCommand() throws {
        let section = try Self.readmeSection("## Command line")
        let pairLine = section.split(separator: "\n").first { $0.hasPrefix("tv2mqtt pair ") }.map(String.init) ?? ""
        for manufacturer in Self.pairingManufacturers {
            #expect(
                pairLine.contains(manufacturer), "README › Command line: `\(pairLine)` does not name \(manufacturer)")
        }
    }

    @Test("the tests' list of vendors is the one tv2mqtt runs with: --tv names its kinds, in its order")
    func shippedList() async throws {
        let run = try await ChildProcess.run(tv2mqtt, ["run", "--help"])
        let tvLine = run.output.split(separator: "\n").first { $0.hasPrefix("  --tv ") }.map(String.init) ?? ""
        let written = "--tv \([Vendor].shipped.addressPrefixHelp)HOST[:PORT]"
        #expect(tvLine.contains(written), "tv2mqtt run --help: \(tvLine), the tests' list: \(written)")
    }

    @Test("--help: every kind in --tv, every manufacturer, every pairing vendor in pair")
    func help() async throws {
        for command in ["run", "discover"] {
            let run = try await ChildProcess.run(tv2mqtt, [command, "--help"])
            let tvLine = run.output.split(separator: "\n").first { $0.hasPrefix("  --tv ") }.map(String.init) ?? ""
            for kind in [Vendor].shipped.kindNames {
                #expect(tvLine.contains(kind + ":"), "tv2mqtt \(command) --help: --tv does not name \(kind): \(tvLine)")
            }
        }
        let usage = try await ChildProcess.run(tv2mqtt, ["--help"])
        let pair = try await ChildProcess.run(tv2mqtt, ["pair", "--help"])
        for manufacturer in Self.manufacturers([Vendor].shipped) {
            #expect(usage.output.contains(manufacturer), "tv2mqtt --help does not name \(manufacturer)")
        }
        for manufacturer in Self.pairingManufacturers {
            #expect(pair.output.contains(manufacturer), "tv2mqtt pair --help does not name \(manufacturer)")
        }
    }

    @Test("README › Configuration: tvs[] names every kind, port and TV key; the scan and tv/add ports are the vendors'")
    func configurationTable() throws {
        let section = try Self.readmeSection("## Configuration")
        let tvs = try #require(Self.row(section, key: "tvs[]"), "README › Configuration has no tvs[] row")
        for vendor in [Vendor].shipped {
            let kind = vendor.kind.rawValue
            #expect(tvs.contains("`\(kind)`"), "README › Configuration › tvs[]: kind `\(kind)` missing")
            #expect(
                tvs.contains(String(vendor.defaultPort)), "README › tvs[]: \(kind)'s port \(vendor.defaultPort) missing"
            )
            for key in (vendor.configuration?.tvKeys ?? []).sorted() {
                #expect(tvs.contains("`\(key)`"), "README › tvs[]: \(kind)'s key `\(key)` missing")
            }
            if let key = vendor.configuration?.key {
                let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `\(key).") }
                #expect(!rows.isEmpty, "README › Configuration has no `\(key).…` row")
            }
        }
        let scanDefault = [Vendor].shipped.filter(\.probedWhenKindUnknown).map { String($0.defaultPort) }
        let scan = try #require(Self.row(section, key: "discovery.scan_ports"))
        let scanWritten = "`[" + scanDefault.joined(separator: ", ") + "]`"
        #expect(scan.contains(scanWritten), "README › discovery.scan_ports: the default is \(scanWritten)")
        let addTV = try #require(Self.row(section, key: "add_tv.ports"))
        for vendor in [Vendor].shipped {
            #expect(addTV.contains(String(vendor.defaultPort)), "README › add_tv.ports: \(vendor.defaultPort) missing")
        }
    }

    @Test("README › Supported TVs: a paragraph for each vendor, linking its driver's README")
    func supportedTVs() throws {
        let paragraphs = try Self.readmeSection("## Supported TVs").split(separator: "\n\n").map(String.init)
        for vendor in [Vendor].shipped {
            let kind = vendor.kind.rawValue
            let matching = paragraphs.filter { $0.contains("(`\(kind)`)") }
            #expect(matching.count == 1, "README › Supported TVs: \(matching.count) paragraphs name (`\(kind)`)")
            let folder = try #require(Self.driverFolder(vendor), "no Sources/Drivers folder for \(kind)")
            let link = "(Sources/Drivers/\(folder)/README.md)"
            let linked = matching.first?.contains(link) ?? false
            #expect(linked, "README › Supported TVs: the \(kind) paragraph does not link \(link)")
            let readme = FileText.read(Self.root + "/Sources/Drivers/\(folder)/README.md")
            #expect(readme != nil, "Sources/Drivers/\(folder)/README.md is missing")
        }
    }

    @Test("README › Home Assistant setup and the common problems: every pairing vendor, its prompt or PIN")
    func pairing() throws {
        let setup = Self.items(try Self.readmeSection("## Home Assistant setup"))
        let pairingStep = setup.first { $0.contains("tv2mqtt pair") }
        let step = try #require(pairingStep, "Home Assistant setup has no pairing step")
        let problems = Self.items(try Self.readmeSection("### Common problems"))
        let docs = try #require(FileText.read(Self.root + "/deploy/homeassistant-addon/DOCS.md"))
        let docsStep = Self.items(docs).first { $0.contains("pair") } ?? ""
        for vendor in [Vendor].shipped where vendor.pairs {
            let name = vendor.manufacturer
            let named = step.contains("A \(name) ") || step.contains("An \(name) ")
            #expect(named, "Home Assistant setup's pairing step does not say what a \(name) shows")
            let problem = problems.first { $0.hasPrefix("- **A \(name) ") || $0.hasPrefix("- **An \(name) ") }
            #expect(problem != nil, "Common problems: no '**A(n) \(name) never shows the prompt…**'")
            #expect(docsStep.contains(name), "the add-on's DOCS.md pairing step does not name \(name)")
            if vendor.pairsByPIN {
                #expect(step.contains("PIN"), "Home Assistant setup's pairing step does not say \(name) may show a PIN")
                let saysPIN = problem?.contains("PIN") ?? false
                #expect(saysPIN, "Common problems: the \(name) item does not say it may show a PIN")
                #expect(
                    docsStep.contains("PIN"), "the add-on's DOCS.md pairing step does not say \(name) may show a PIN")
            }
        }
    }

    @Test("the ports to open and the wake settings name every vendor's")
    func portsAndWake() throws {
        let problems = Self.items(try Self.readmeSection("### Common problems"))
        let noTVsItem = problems.first { $0.hasPrefix("- **No TVs found") }
        let wakeItem = problems.first { $0.hasPrefix("- **Power ON does not wake") }
        let noTVs = try #require(noTVsItem, "Common problems has no 'No TVs found'")
        let wake = try #require(wakeItem, "Common problems has no 'Power ON does not wake'")
        let docs = try #require(FileText.read(Self.root + "/deploy/homeassistant-addon/DOCS.md"))
        let troubleshooting = try #require(FileText.read(Self.root + "/docs/troubleshooting.md"))
        let turnOnFailed = troubleshooting.split(separator: "\n").first { $0.hasPrefix("| `event=turn_on_failed`") }
        for vendor in [Vendor].shipped {
            let port = String(vendor.defaultPort)
            #expect(
                noTVs.contains(port), "Common problems › No TVs found: port \(port) (\(vendor.kind.rawValue)) missing")
            #expect(docs.contains(port), "the add-on's DOCS.md: port \(port) (\(vendor.kind.rawValue)) missing")
            guard let hint = vendor.wakeHint else { continue }
            let setting = Self.wakeSetting(hint)
            #expect(wake.contains(setting), "Common problems › Power ON: \(vendor.manufacturer)'s \(setting) missing")
            let inRow = turnOnFailed?.contains(setting) ?? false
            #expect(inRow, "docs/troubleshooting.md › event=turn_on_failed: \(setting) missing")
        }
    }

    @Test("the add-on's schema, description and DOCS.md name every kind")
    func addon() throws {
        let config = try #require(FileText.read(Self.root + "/deploy/homeassistant-addon/config.yaml"))
        let docs = try #require(FileText.read(Self.root + "/deploy/homeassistant-addon/DOCS.md"))
        let lines = config.split(separator: "\n").map(String.init)
        let schemaLine = lines.first { $0.drop { $0 == " " }.hasPrefix("kind: list(") }
        let kindLine = try #require(schemaLine, "config.yaml's schema has no kind: list(…)")
        let inside = kindLine.split(separator: "(", maxSplits: 1)[1].split(separator: ")")[0]
        let schemaKinds = Set(inside.split(separator: "|").map(String.init))
        #expect(schemaKinds == Set([Vendor].shipped.kindNames), "config.yaml's schema: \(kindLine)")
        let descriptionLine = lines.first { $0.hasPrefix("description:") }
        let description = try #require(descriptionLine, "config.yaml has no description")
        #expect(description.contains([Vendor].shipped.familyNames), "config.yaml's description: \(description)")
        #expect(docs.contains([Vendor].shipped.familyNames), "DOCS.md does not say \([Vendor].shipped.familyNames)")
        for kind in [Vendor].shipped.kindNames {
            #expect(docs.contains("`\(kind)`"), "the add-on's DOCS.md does not name kind `\(kind)`")
        }
    }

    @Test("examples/config/full.json has a TV of every kind")
    func fullExample() throws {
        let text = try #require(FileText.read(Self.root + "/examples/config/full.json"))
        for kind in [Vendor].shipped.kindNames {
            #expect(text.contains("\"kind\": \"\(kind)\""), "examples/config/full.json has no TV of kind \(kind)")
        }
    }
}

/// The README has room for every vendor: at most 40 KB (issue 40), the long tables elsewhere.
@Suite("README: at most 40 KB")
struct READMESizeTests {
    @Test("README.md is at most 40 KB")
    func size() throws {
        let readme = try #require(FileText.read(LogLineTableTests.root + "/README.md"))
        let bytes = readme.utf8.count
        #expect(bytes <= 40_000, "README.md is \(bytes) bytes; move a long table to docs/ and link it")
    }
}

extension VendorsEverywhereTests {
    /// The lines from `heading` (an exact line, such as "## Command line") to the next heading
    /// of its level or above.
    static func readmeSection(_ heading: String) throws -> String {
        let readme = try #require(FileText.read(root + "/README.md"))
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: heading), "README.md has no '\(heading)'")
        let level = heading.prefix { $0 == "#" }.count
        let end =
            lines[(start + 1)...].firstIndex { line in
                let hashes = line.prefix { $0 == "#" }.count
                return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
            } ?? lines.count
        return lines[start..<end].joined(separator: "\n")
    }

    /// The table row whose first cell is `` `key` ``.
    static func row(_ section: String, key: String) -> String? {
        section.split(separator: "\n").first { $0.hasPrefix("| `\(key)` |") }.map(String.init)
    }

    /// The items of the Markdown lists in `text` ("- …" or "4. …" with their indented lines).
    static func items(_ text: String) -> [String] {
        var items: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let digits = line.prefix { $0.isNumber }
            let isNumbered = !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
            if line.hasPrefix("- ") || isNumbered {
                items.append(String(line))
            } else if line.hasPrefix("  "), !items.isEmpty {
                items[items.count - 1] += " " + line.drop { $0 == " " }
            }
        }
        return items
    }

    /// The driver's folder of `vendor`: the one under Sources/Drivers that holds a
    /// `…Vendor.swift` and is named as its kind without dashes ("samsung-legacy" → "SamsungLegacy").
    static func driverFolder(_ vendor: Vendor) -> String? {
        let wanted = vendor.kind.rawValue.filter { $0 != "-" }
        let folders = LogLineTableTests.bridgeSources().compactMap { path -> String? in
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[0] == "Drivers", parts[2] == parts[1] + "Vendor.swift" else { return nil }
            return String(parts[1])
        }
        return folders.first { $0.lowercased() == wanted }
    }
}
