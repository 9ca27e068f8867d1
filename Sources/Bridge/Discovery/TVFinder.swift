import Clients
import Configuration
import Drivers
import Net
import Support
import Synchronization
import TVModel

/// Finds TVs (README › Configuration, `discovery`): the configured ones, SSDP searches and mDNS
/// browses every `search_interval`, NOTIFY announcements as they come, and an optional TCP probe
/// of configured networks. Every address found goes to the registry, which probes it once for the TV's identity.
public final class TVFinder: Sendable {
    let configuration: BridgeConfiguration
    let registry: TVRegistry
    let logger: Logger
    private let stopped = Atomic(false)
    private let searchNow = Wakeup()
    /// A `discover` request is running: one at a time (each is a full search and scan).
    private let discovering = Atomic(false)

    /// The vendors searched for, scanned and probed: the driver factory's. Vendors may share a
    /// target (pre-2016 Samsungs answer as today's do): the first listed stands for it, and its
    /// probe tells them apart.
    var vendors: [Vendor] { registry.factory.vendors }
    /// How many scan probes run at once, and how long each waits for a TCP answer.
    static let scanConcurrency = 64
    /// How many SSDP-found addresses (search answers and announcements together) are probed
    /// at once: `probes`.
    static let probeConcurrency = 32
    /// Announcements (NOTIFY) taken from one source address per `announcementWindow`; more
    /// are dropped before anything is probed. A TV announces each target about 3 times.
    static let announcementsPerSource = 8
    static let announcementWindow = Duration.seconds(10)
    /// Source addresses the announcement rate limit tracks at most.
    static let announcementSources = 4096
    let probes = ProbePool(concurrency: probeConcurrency)
    static let configuredProbeSlotHold = Duration.seconds(1)
    static let scanTimeout = Duration.milliseconds(700)

    init(configuration: BridgeConfiguration, registry: TVRegistry, logger: Logger) {
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        searchNow.signal()
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) || Task.isCancelled }

    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.configuredLoop() }
            if configuration.discovery.ssdp {
                group.addTask { await self.listenForAnnouncements() }
            }
            group.addTask { await self.searchLoop() }
        }
    }

    /// One search and scan round, now (`bridge/request/discover`); false, at once, while
    /// another request's round runs.
    func discoverNow() async -> Bool {
        guard
            discovering.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return false }
        defer { discovering.store(false, ordering: .releasing) }
        await withDiscardingTaskGroup { group in
            if configuration.discovery.ssdp { group.addTask { await self.search() } }
            if let mdns { group.addTask { await self.browse(mdns) } }
            if !configuration.discovery.scan.isEmpty { group.addTask { await self.scan() } }
            group.addTask { await self.probeConfigured(placeholders: false) }
        }
        return true
    }

    private func searchLoop() async {
        let interval = configuration.discovery.searchInterval
        while !isStopped {
            await withDiscardingTaskGroup { group in
                if configuration.discovery.ssdp { group.addTask { await self.search() } }
                if let mdns { group.addTask { await self.browse(mdns) } }
                if !configuration.discovery.scan.isEmpty { group.addTask { await self.scan() } }
            }
            if interval == 0 { return }
            _ = await searchNow.wait(timeout: .seconds(interval))
        }
    }

    // MARK: configured TVs

    private func configuredLoop() async {
        guard !configuration.tvs.isEmpty else { return }
        await probeConfigured(placeholders: true)
        while !isStopped {
            _ = await searchNow.wait(timeout: .seconds(60))
            if isStopped { return }
            await probeConfigured(placeholders: false)
        }
    }

    /// Probes configured TVs not yet known; one that does not answer but has an id and a kind
    /// is added anyway, so it can be woken (Wake-on-LAN to its configured MACs). Through the
    /// probe pool, like SSDP answers: a configuration of thousands of TVs is probed
    /// `probeConcurrency` at a time, not all at once (a probe that takes longer than
    /// `configuredProbeSlotHold`, an unplugged TV, lets the next one start).
    private func probeConfigured(placeholders: Bool) async {
        await withDiscardingTaskGroup { group in
            for tv in configuration.tvs {
                group.addTask {
                    await self.probes.run(holdingAtMost: Self.configuredProbeSlotHold) {
                        await self.registry.candidate(
                            host: tv.host, kind: tv.kind, port: tv.port, source: "configuration", configured: tv)
                    }
                    if placeholders { await self.registry.placeholder(tv) }
                }
            }
        }
    }

    // MARK: SSDP

    private var discoverer: SSDPDiscoverer? {
        let address = configuration.discovery.ssdpAddress
        guard let socketAddress = try? SocketAddress(ip: address.host, port: address.port) else {
            logger.error("discovery.ssdp_address must be an IP address: \(address)")
            return nil
        }
        return SSDPDiscoverer(
            searchAddress: socketAddress, interfaces: configuration.discovery.interfaces,
            targets: vendors.ssdpTargets, logger: logger)
    }

    private func search() async {
        guard let discoverer else { return }
        registry.context.observer?.discovery(.searched)
        // Through the shared probe pool: a search of a large network answers with thousands
        // of TVs within MX, and a probe task per answer all at once (HTTP buffers, parsed
        // descriptions, task frames) made the bridge's peak memory. The answers are read as
        // fast as they come and wait for a slot here, not in the socket: a reader waiting for
        // a slot let the kernel drop ~45 % of 15,000 answers from 5,000 TVs.
        let (sightings, waiting) = AsyncStream.makeStream(of: SSDPSighting.self)
        await withDiscardingTaskGroup { group in
            group.addTask {
                defer { waiting.finish() }
                do {
                    try await discoverer.search(count: 3, mx: 2) { waiting.yield($0) }
                } catch {
                    if self.isStopped || error is CancellationError { return }  // shutting down, not a failure
                    self.logger.warning("SSDP search failed: \(error)")
                }
            }
            for await sighting in sightings {
                await probes.acquire()
                group.addTask {
                    await self.found(sighting, via: "SSDP search")
                    await self.probes.release()
                }
            }
        }
    }

    /// NOTIFYs as they come, bounded: per source at most `announcementsPerSource`
    /// per `announcementWindow`, and only while the probe pool has a free slot; the rest are
    /// dropped (counted, and reported at most once a minute).
    private func listenForAnnouncements() async {
        guard let discoverer else { return }
        var limiter = SourceRateLimiter(
            limit: Self.announcementsPerSource, window: Self.announcementWindow,
            maxSources: Self.announcementSources)
        let dropReports = LogThrottle()
        while !isStopped {
            do {
                try await withThrowingDiscardingTaskGroup { group in
                    try await discoverer.listen { sighting in
                        guard sighting.alive, vendors.vendor(ssdpTarget: sighting.target) != nil else { return }
                        let now = LoopClock.current.now
                        guard limiter.allow(sighting.address, now: now), await probes.tryAcquire() else {
                            if let heldBack = dropReports.admit(now: now) {
                                logger.warning(
                                    "SSDP announcements arrive faster than they can be checked: \(heldBack + 1) dropped (the next search still finds every TV)"
                                )
                            }
                            return
                        }
                        group.addTask {
                            await self.found(sighting, via: "SSDP announcement")
                            await self.probes.release()
                        }
                    }
                }
            } catch {
                if isStopped { return }
                logger.warning("cannot listen for SSDP announcements: \(error); retrying in 30 s")
                try? await EventLoop.sleep(for: .seconds(30))  // paced: listening failed; try again later
            }
        }
    }

    private func found(_ sighting: SSDPSighting, via source: String) async {
        guard sighting.alive, let vendor = vendors.vendor(ssdpTarget: sighting.target) else { return }
        let port = vendor.ssdpLocationIsControlPort ? sighting.location.port : nil
        registry.context.observer?.discovery(
            .answered(address: sighting.address, kind: vendor.kind.rawValue, via: source))
        await registry.candidate(host: sighting.address, kind: vendor.kind, port: port, source: source)
    }

    // MARK: mDNS

    private var mdns: MDNSBrowse? { MDNSBrowse(configuration.discovery, vendors: vendors, logger: logger) }

    /// One browse; its answers are probed through the shared pool, at most
    /// `announcementsPerSource` per source and `announcementWindow`, as SSDP's announcements.
    private func browse(_ mdns: MDNSBrowse) async {
        var limiter = SourceRateLimiter(
            limit: Self.announcementsPerSource, window: Self.announcementWindow,
            maxSources: Self.announcementSources)
        let (found, waiting) = AsyncStream.makeStream(of: MDNSBrowse.Found.self)
        await withDiscardingTaskGroup { group in
            group.addTask {
                defer { waiting.finish() }
                do {
                    try await mdns.browse { waiting.yield($0) }
                } catch {
                    if self.isStopped || error is CancellationError { return }
                    self.logger.warning("mDNS browse failed: \(error)")
                }
            }
            for await instance in found {
                guard limiter.allow(instance.host, now: LoopClock.current.now) else {
                    logger.debug("ignoring mDNS \(instance.instance) from \(instance.host): too many answers from it")
                    continue
                }
                await probes.acquire()
                group.addTask {
                    self.registry.context.observer?.discovery(
                        .answered(address: instance.host, kind: instance.kind.rawValue, via: "mDNS"))
                    await self.registry.candidate(
                        host: instance.host, kind: instance.kind, port: instance.port, source: "mDNS")
                    await self.probes.release()
                }
            }
        }
    }

    // MARK: scan

    /// Probes every address of the configured networks on the scan ports (a TCP connect),
    /// a bounded number at a time.
    private func scan() async {
        let ports = configuration.discovery.ports(scannedFor: vendors)
        let targets = configuration.discovery.scan.flatMap { network in
            network.hosts.flatMap { host in ports.map { (host, $0) } }
        }
        logger.debug("scanning \(targets.count) address/port pairs")
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for (host, port) in targets {
                if isStopped { break }
                if running >= Self.scanConcurrency {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { await self.probePort(host: host, port: port) }
            }
        }
    }

    private func probePort(host: String, port: UInt16) async {
        guard let address = try? SocketAddress(ip: host, port: port),
            let connection = try? await TCPConnection.connect(to: address, timeout: Self.scanTimeout)
        else { return }
        connection.close()
        let kind = vendors.vendor(defaultPort: port)?.kind
        registry.context.observer?.discovery(
            .answered(address: host, kind: kind?.rawValue, via: "scan"))
        await registry.candidate(host: host, kind: kind, port: port, source: "scan")
    }
}
