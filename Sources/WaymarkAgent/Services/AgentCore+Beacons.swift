import WaymarkCore

extension AgentCore {
    /// Takes one update of the beacon source: a sighting goes through the monitor and the ranger, a rejected
    /// frame is counted, a change of scanning pauses their timers, a failure is an `error` event.
    mutating func process(_ update: BeaconUpdate) {
        guard var monitor = beacons else { return }
        var outputs: [BeaconMonitor.Output] = []
        switch update.event {
        case .sighting(let sighting):
            beaconCounters.count("beacon_sightings")
            outputs = monitor.observe(sighting, now: update.monotonic)
        case .rejected(let rejection):
            beaconCounters.count("beacon_rejected_\(rejection.reason)")
        case .scanning(let scanning):
            operating.observeBeaconScanning(scanning)
            outputs = monitor.setScanning(scanning, now: update.monotonic)
        case .failure(let failure):
            operating.observeBeaconScanning(false)
            outputs = monitor.setScanning(false, now: update.monotonic)
            var events = [
                Event(
                    time: eventTime(at: update.monotonic, wallClock: update.wallClock),
                    kind: .error(ErrorReport(code: failure.code, message: failure.message))
                )
            ]
            deliver(&events, now: update.monotonic)
        }
        beacons = monitor
        deliverBeacons(outputs, now: update.monotonic, wallClock: update.wallClock)
    }

    /// The exits and losses due by `now`.
    mutating func advanceBeacons(to now: MonotonicInstant, wallClock: Timestamp) {
        guard var monitor = beacons, let deadline = monitor.nextDeadline, deadline <= now else { return }
        let outputs = monitor.advance(to: now)
        beacons = monitor
        deliverBeacons(outputs, now: now, wallClock: wallClock)
    }

    /// Monitors the beacon regions of a loaded region file: those kept by id keep their states.
    mutating func monitorBeacons(_ regions: [BeaconRegion], now: MonotonicInstant) {
        guard var monitor = beacons else { return }
        monitor.replace(regions, now: now)
        beacons = monitor
        beaconRegionsChanged = true
    }

    private mutating func deliverBeacons(_ outputs: [BeaconMonitor.Output], now: MonotonicInstant, wallClock: Timestamp)
    {
        guard !outputs.isEmpty else { return }
        let time = eventTime(at: now, wallClock: wallClock)
        var events: [Event] = []
        for output in outputs {
            switch output {
            case .crossing(let id, let crossing, let beacon, let notifies):
                beaconRegionsChanged = true
                guard notifies else { continue }
                let position = pipeline.status.lastKnown?.coordinate
                let region = BeaconRegionEvent(id: id, crossing: crossing, beacon: beacon, position: position)
                events.append(Event(time: time, kind: .beaconRegion(region)))
            case .determination(let id, let state):
                beaconRegionsChanged = true
                events.append(Event(time: time, kind: .regionState(RegionStateReport(id: id, state: state))))
            case .ranging(let beacon, let change):
                events.append(Event(time: time, kind: .beacon(BeaconRanger.Report(beacon: beacon, change: change))))
            }
        }
        deliver(&events, now: now)
    }
}
