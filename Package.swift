// swift-tools-version:6.0
// tv2mqtt — Roku, Samsung and LG TVs in Home Assistant over MQTT.
//
// No Swift package dependencies (a fixed rule of the project): only the toolchain's
// modules and the system OpenSSL, reached through the COpenSSL system-library target.
// Module layers, lowest first (dependencies point one way):
//   Support, Wire  ←  Net  ←  Clients  ←  Drivers  ←  Configuration  ←  Bridge  ←  StatusPage  ←  BridgeCommandLine  ←  tv2mqtt
//   Persistence (the state file) sits on Net and TVModel, beneath Bridge: it knows no vendor.
//   ConfigurationLoading (Configuration's sources) sits beside Bridge, beneath BridgeCommandLine.
//   TVModel and HomeAssistant are pure modules beside them; MQTTInterface (topics and the
//   state document) sits beneath both HomeAssistant and Bridge.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "tv2mqtt",
    products: [
        .executable(name: "tv2mqtt", targets: ["tv2mqtt"]),
        .executable(name: "tvsim", targets: ["tvsim"]),
        .executable(name: "tvbench", targets: ["tvbench"]),
    ],
    dependencies: [],
    targets: [
        // System OpenSSL (libssl-dev): TLS, SHA-1, SHA-256, random bytes.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // Small C shims: epoll/eventfd (not exported by Glibc) and OpenSSL macros Swift cannot call.
        .target(
            name: "CSystem", dependencies: ["COpenSSL"],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),

        // Logging, time, small shared helpers. No networking.
        .target(name: "Support", swiftSettings: strict),
        // Pure codecs: bytes ⇄ values for every protocol, and the validated reading of a configuration
        // tree (`ConfigReader`). No sockets, clocks, randomness or logging.
        .target(name: "Wire", swiftSettings: strict),
        // Sockets, the epoll event loop, TLS over memory BIOs, UDP, listeners, hashing.
        .target(name: "Net", dependencies: ["CSystem", "Support"], swiftSettings: strict),
        // Protocol clients: MQTT, HTTP, WebSocket, SSDP, Wake-on-LAN.
        .target(name: "Clients", dependencies: ["Wire", "Net", "Support"], swiftSettings: strict),
        // The shared TV vocabulary: ids, identities, snapshots, commands, capabilities.
        .target(name: "TVModel", dependencies: ["Support"], swiftSettings: strict),
        // Vendor drivers: Roku (ECP, ECP-2), Samsung (REST, WebSocket, UPnP; the legacy remote) and LG (SSAP).
        .target(
            name: "Drivers", dependencies: ["Clients", "Net", "TVModel", "Wire", "Support"],
            exclude: [
                "Roku/README.md", "Samsung/README.md", "SamsungLegacy/README.md", "LG/README.md", "AndroidTV/README.md",
            ],
            swiftSettings: strict),
        // The bridge's MQTT interface (SPEC §4): every topic and the state document, one definition
        // each, for Bridge (which publishes them) and HomeAssistant (whose configs name them).
        .target(name: "MQTTInterface", dependencies: ["TVModel", "Wire", "Support"], swiftSettings: strict),
        // Home Assistant discovery: entity tables and payload builder.
        .target(
            name: "HomeAssistant", dependencies: ["MQTTInterface", "TVModel", "Wire", "Support"],
            exclude: ["README.md"],
            swiftSettings: strict),
        // The configuration value a bridge runs with (SPEC §3), after every source was merged.
        .target(
            name: "Configuration", dependencies: ["Drivers", "HomeAssistant", "MQTTInterface", "TVModel", "Wire"],
            swiftSettings: strict),
        // What survives a restart (SPEC §7): the state file, written atomically in a safe directory.
        .target(name: "Persistence", dependencies: ["Net", "TVModel", "Wire", "Support"], swiftSettings: strict),
        // The running bridge: registry, pollers, publishers, router, service.
        .target(
            name: "Bridge",
            dependencies: [
                "Configuration", "Persistence", "Drivers", "HomeAssistant", "MQTTInterface", "Clients", "Net",
                "TVModel", "Wire", "Support",
            ],
            swiftSettings: strict),
        // The configuration's sources (JSON file, environment, flag values) merged and validated,
        // every error naming its key, variable or flag. Knows no command-line parser.
        .target(
            name: "ConfigurationLoading",
            dependencies: ["Configuration", "Drivers", "HomeAssistant", "MQTTInterface", "TVModel", "Wire"],
            swiftSettings: strict),
        // The `tv2mqtt` command line: flag parser, the commands (run, discover, pair, send,
        // check-config, health, version, help) and signal handling.
        .target(
            name: "BridgeCommandLine",
            dependencies: [
                "ConfigurationLoading", "Configuration", "Persistence", "Bridge", "StatusPage", "Drivers",
                "MQTTInterface", "Clients", "Net", "TVModel", "Wire", "Support",
            ],
            swiftSettings: strict),
        // The status page (`http.listen`): its HTTP server, its live feed, its embedded assets.
        .target(
            name: "StatusPage",
            dependencies: ["Bridge", "Configuration", "Clients", "Drivers", "MQTTInterface", "Net", "Wire", "Support"],
            exclude: ["README.md"],
            // Real files, embedded as byte arrays (`PackageResources`): no bundle to find at run time.
            resources: [
                .embedInCode("Assets/index.html"), .embedInCode("Assets/app.css"), .embedInCode("Assets/app.js"),
            ],
            swiftSettings: strict),
        // Simulated TVs of every vendor (a folder each) on real sockets, for tests, benchmarks and
        // trying tv2mqtt.
        .target(
            name: "TVSimulators", dependencies: ["Wire", "Net", "Clients", "Support"],
            exclude: ["README.md", "LG/README.md"], swiftSettings: strict),
        // Process and broker harness shared by the tests and the benchmark (posix_spawn, mosquitto).
        .target(name: "Harness", dependencies: ["Support", "Net"], swiftSettings: strict),

        .executableTarget(
            name: "tv2mqtt", dependencies: ["BridgeCommandLine", "Bridge", "Drivers", "Net", "Support", "CSystem"],
            swiftSettings: strict),
        .executableTarget(
            name: "tvsim", dependencies: ["TVSimulators", "Net", "Wire", "Support"], swiftSettings: strict),
        .executableTarget(
            name: "tvbench",
            dependencies: ["Harness", "Clients", "Drivers", "TVSimulators", "TVModel", "Net", "Wire", "Support"],
            exclude: ["README.md", "plots"], swiftSettings: strict),

        // Test helpers shared by the test targets (a Swift Testing trait for CPU-bound suites, the
        // vendors tv2mqtt ships, the fixture reader).
        .target(
            name: "TestSupport", dependencies: ["Drivers", "Harness", "Net", "Support", "TestLoopExecutor"],
            path: "Tests/TestSupport"),
        // Makes the event loop the test process's global executor before main, as in tv2mqtt.
        .target(name: "TestLoopExecutor", path: "Tests/TestLoopExecutor"),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "TVModelTests", dependencies: ["TVModel"]),
        .testTarget(name: "MQTTInterfaceTests", dependencies: ["MQTTInterface", "TVModel", "Wire"]),
        .testTarget(name: "WireTests", dependencies: ["Wire", "Net", "TestSupport"]),
        .testTarget(name: "NetTests", dependencies: ["Net", "Harness", "TestSupport"]),
        .testTarget(
            name: "ClientsTests", dependencies: ["Clients", "Net", "Wire", "Harness", "TestSupport"],
            exclude: ["WebSocket/Interop"]),
        .testTarget(name: "DriversTests", dependencies: ["Drivers", "TVSimulators", "Harness", "TestSupport"]),
        .testTarget(
            name: "HomeAssistantTests",
            dependencies: ["HomeAssistant", "MQTTInterface", "TVModel", "Wire", "Harness", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "TVSimulatorsTests", dependencies: ["TVSimulators", "Clients", "Net", "Wire", "TestSupport"],
            exclude: ["AndroidTV/Interop"]),
        .testTarget(
            name: "PersistenceTests",
            dependencies: ["Persistence", "Bridge", "Drivers", "TVModel", "Support", "Harness", "TestSupport"]),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "Bridge", "Configuration", "ConfigurationLoading", "Persistence", "MQTTInterface", "TVSimulators",
                "Harness", "TestSupport",
            ]),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration"]),
        .testTarget(
            name: "ConfigurationLoadingTests",
            dependencies: [
                "ConfigurationLoading", "Configuration", "BridgeCommandLine", "Bridge", "Drivers", "MQTTInterface",
                "Wire", "TestSupport",
            ]),
        .testTarget(
            name: "BridgeCommandLineTests",
            dependencies: [
                "BridgeCommandLine", "Bridge", "Configuration", "Persistence", "Drivers", "TVSimulators", "TestSupport",
            ]),
        .testTarget(
            name: "StatusPageTests",
            dependencies: [
                "StatusPage", "Bridge", "Configuration", "Drivers", "TVSimulators", "Clients", "Harness", "Net", "Wire",
                "Support", "TestSupport",
            ]),
        // tvbench's pure parts (the markdown table): no timing is asserted anywhere.
        .testTarget(name: "TVBenchTests", dependencies: ["tvbench"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["Harness", "Clients", "Drivers", "TVSimulators", "TestSupport"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "TestSupport"]),
    ]
)
