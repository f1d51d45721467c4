import WaymarkCore

extension AgentCore {
    /// Takes one update of the beacon source: a sighting goes through the monitor and the ranger, a rejected
    /// frame is counted, a change of scanning pauses their timers, a failure is an `error` event.
    mutating func process(_ update: BeaconUpdate) {
        // The monitor is changed where it is stored (`beacons?.…`): a copy taken out and written back would copy
        // its tables at every sighting.
        guard let wasScanning = beacons?.isScanning else { return }
        let outputs: [BeaconMonitor.Output]
        switch update.event {
        case .sighting(let sighting):
            beaconSightings += 1
            outputs = beacons?.observe(sighting, now: update.monotonic) ?? []
        case .rejected(let rejection):
            beaconRejections[rejection, default: 0] += 1
            outputs = []
        case .scanning(let scanning):
            outputs = beacons?.setScanning(scanning, now: update.monotonic) ?? []
            if scanning, let changes = health?.beaconSource("scanning", failure: nil, now: update.monotonic) {
                var events = alarmEvents(changes, now: update.monotonic, wallClock: update.wallClock)
                deliver(&events, now: update.monotonic)
            }
        case .failure(let failure):
            beaconFailures += 1
            outputs = beacons?.setScanning(false, now: update.monotonic) ?? []
            let changes = health?.beaconSource("scanning", failure: failure.message, now: update.monotonic) ?? []
            var events = [
                Event(
                    time: eventTime(at: update.monotonic, wallClock: update.wallClock),
                    kind: .error(ErrorReport(code: failure.code, message: failure.message))
                )
            ]
            events += alarmEvents(changes, now: update.monotonic, wallClock: update.wallClock)
            deliver(&events, now: update.monotonic)
        }
        if beacons?.isScanning != wasScanning { operating.noteChange() }
        deliverBeacons(outputs, now: update.monotonic, wallClock: update.wallClock)
    }

    /// The exits and losses due by `now`, once the sightings heard before them have had ``beaconLatency`` to come.
    mutating func advanceBeacons(to now: MonotonicInstant, wallClock: Timestamp) {
        guard let deadline = beacons?.nextDeadline, deadline + beaconLatency <= now else { return }
        deliverBeacons(beacons?.advance(to: now) ?? [], now: now, wallClock: wallClock)
    }

    /// Monitors the beacon regions of a loaded region file: those kept by id keep their states.
    mutating func monitorBeacons(_ regions: [BeaconRegion], now: MonotonicInstant) {
        guard beacons != nil else { return }
        beacons?.replace(regions, now: now)
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
