import WaymarkBluetooth
import WaymarkCore

extension AgentCore {
    /// Decides from the vehicle's state at `now` (paused or moving, the regions it is inside, geographic and
    /// beacon) whether the board should advertise; the new wish when it changed, else nil. A wish that ends
    /// ends the alarm of a failure to advertise: nothing is tried any more.
    mutating func advertisingWish(now: MonotonicInstant, wallClock: Timestamp) -> Bool? {
        guard let rule = advertising?.policy.rule else { return nil }
        // The regions the vehicle is inside, gathered at every step only for the rule that reads them.
        var inside: [String] = []
        if case .insideRegions = rule { inside = pipeline.regions.insideIDs + (beacons?.insideIDs ?? []) }
        let pause = pipeline.activity.pause?.reason
        guard let wish = advertising?.policy.update(pause: pause, inside: inside, now: now)?.advertising else {
            return nil
        }
        if !wish, let changes = health?.beaconSource("advertising", failure: nil, now: now), !changes.isEmpty {
            advertising?.lastFailure = nil
            var events = alarmEvents(changes, now: now, wallClock: wallClock)
            deliver(&events, now: now)
        }
        return wish
    }

    /// The agent stops: the wish to advertise ends (the advertiser unregisters as it stops).
    mutating func stopAdvertising(now: MonotonicInstant) -> Bool? {
        advertising?.policy.stop(now: now)?.advertising
    }

    /// Takes what the advertiser did: a start or a stop is a `beacon_advertising` event with the policy's reason
    /// (or BlueZ's, for a stop it made), a failure an `error` event and the `beacon_source_failed` alarm.
    mutating func process(_ event: AdvertiserEvent, now: MonotonicInstant, wallClock: Timestamp) {
        guard var state = advertising else { return }
        let time = eventTime(at: now, wallClock: wallClock)
        var events: [Event] = []
        var alarms: [AlarmChange] = []
        switch event {
        case .advertising(let on, let reason):
            state.isAdvertising = on
            state.since = now
            let wish = state.policy.lastChange
            let report = AdvertisingReport(
                change: on ? .started : .stopped,
                reason: reason ?? wish?.reason.rawValue ?? AdvertisingPolicy.Reason.stopping.rawValue,
                beacon: state.beacon,
                regionID: reason == nil ? wish?.regionID : nil
            )
            events.append(Event(time: time, kind: .beaconAdvertising(report)))
            if on {
                state.starts += 1
                state.lastFailure = nil
                alarms = health?.beaconSource("advertising", failure: nil, now: now) ?? []
            } else {
                state.stops += 1
            }
        case .failure(let failure):
            events.append(Event(time: time, kind: .error(ErrorReport(code: failure.code, message: failure.message))))
            // A failure while nothing is wanted (an unregistration refused) is said, but no alarm is raised that
            // only a later registration could end.
            if state.policy.wantsAdvertising {
                state.failures += 1
                state.lastFailure = failure.message
                alarms = health?.beaconSource("advertising", failure: failure.message, now: now) ?? []
            }
        }
        advertising = state
        operating.noteChange()
        events += alarmEvents(alarms, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }
}
