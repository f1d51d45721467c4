extension Configuration {
    /// Takes the board's link to its fleet from `local`, whatever a remote configuration says: the broker, topic,
    /// credentials and TLS of `[sinks.owntracks]`, and `[fleet] accept`. A `setConfiguration` sent to a whole fleet
    /// then cannot cut a board off its broker (a wrong host, another board's user name under the ACL) where no
    /// command could reach it again, nor change what it accepts: both are set on the board (docs/fleet.md, "The
    /// remote configuration").
    mutating func keepFleetLink(of local: Configuration) {
        let link = local.ownTracksSink
        ownTracksSink.host = link.host
        ownTracksSink.port = link.port
        ownTracksSink.topic = link.topic
        ownTracksSink.username = link.username
        ownTracksSink.passwordFile = link.passwordFile
        ownTracksSink.caFile = link.caFile
        ownTracksSink.certFile = link.certFile
        ownTracksSink.keyFile = link.keyFile
        fleet.accept = local.fleet.accept
    }
}
