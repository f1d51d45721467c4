import WaymarkCore
import WaymarkFormats
import WaymarkSystem

/// The files a valid configuration names that the agent reads at start, each read as the agent reads it
/// (`waymark check-config`): the region file through ``RegionSource`` (every feature, the limits), the
/// gazetteer of `[places]` through `Gazetteer.open(path:)` (its header, size and checksum), the address file
/// through `AddressIndex.open(path:verifying:)` checked whole (more than the agent's start reads), the password,
/// certificate-authority, certificate and key files of the enabled network sinks and of `[fleet]` (present and
/// readable, as the sink opens them). A disabled feature's files are not read, as the agent does not read them.
///
/// Each problem is one ``ConfigurationIssue`` on the line of the key that names the file.
struct NamedFileCheck {
    let configuration: Configuration
    let document: TOMLDocument
    /// The configuration's file name, which issues start with.
    let fileName: String

    /// The problems found, and notes for a person about files that are fine to lack (the gazetteer of the
    /// optional `waymark-places` package).
    func run() -> (issues: [ConfigurationIssue], notes: [String]) {
        var issues = regionFileIssues()
        var notes: [String] = []
        checkPlaces(into: &issues, notes: &notes)
        issues += sinkFileIssues()
        return (issues, notes)
    }

    /// The region file's problems, one per line as the agent logs them, then what the agent would do.
    private func regionFileIssues() -> [ConfigurationIssue] {
        guard let file = configuration.regions.file else { return [] }
        let source = RegionSource(path: file, settings: configuration.regions)
        if case .failure(let unreadable) = source.version(), unreadable.missing {
            let message =
                "\(file): \(unreadable.reason): the agent would start without regions and warn until the file "
                + "appears; create it (waymark regions add), or leave the key out to monitor no regions"
            return [issue("regions", "file", message: message)]
        }
        guard case .failure(let failure) = source.load() else { return [] }
        var issues = failure.lines.map { issue("regions", "file", message: $0) }
        let problems = failure.lines.count == 1 ? "the problem above" : "the \(failure.lines.count) problems above"
        issues.append(
            issue(
                "regions",
                "file",
                message: "\(file) rejected: the agent would monitor none of its regions (alarm region_file_rejected); "
                    + "fix \(problems), or leave the key out to monitor no regions"
            )
        )
        return issues
    }

    /// The problems of the gazetteer and of the address file, if `[places]` is enabled. The default file missing is a note, not a problem: it
    /// comes with the optional `waymark-places` package, and without it the agent names only the sites.
    private func checkPlaces(into issues: inout [ConfigurationIssue], notes: inout [String]) {
        let settings = configuration.places
        guard settings.enabled else { return }
        if let path = settings.addressFileToOpen {
            do {
                _ = try AddressIndex.open(path: path, verifying: .whole)
            } catch {
                issues.append(
                    issue(
                        "places",
                        "addresses",
                        message: "\(error); until then the agent would run without street addresses"
                    )
                )
            }
        }
        do {
            _ = try Gazetteer.open(path: settings.file)
        } catch {
            if settings.file == PlacesSettings.defaultFile && Files.size(settings.file) == nil {
                notes.append(
                    "\(fileName): [places] file \(settings.file) is not installed (package waymark-places): "
                        + "trips and pauses would be named after the sites only"
                )
                return
            }
            issues.append(
                issue(
                    "places",
                    "file",
                    message: "\(error); until then the agent would name trips and pauses after the sites only "
                        + "(or set [places] enabled = false)"
                )
            )
        }
    }

    /// The files of the enabled network sinks that cannot be read.
    private func sinkFileIssues() -> [ConfigurationIssue] {
        var named: [(section: String, key: String, path: String?)] = []
        let ownTracks = configuration.ownTracksSink
        // [fleet] uses the OwnTracks sink's credentials and TLS, sink enabled or not.
        if ownTracks.enabled || configuration.fleet.enabled {
            named += [
                ("sinks.owntracks", "password_file", ownTracks.passwordFile),
                ("sinks.owntracks", "ca_file", ownTracks.caFile),
                ("sinks.owntracks", "cert_file", ownTracks.certFile),
                ("sinks.owntracks", "key_file", ownTracks.keyFile),
            ]
        }
        if configuration.traccarSink.uplink.enabled {
            named.append(("sinks.traccar", "ca_file", configuration.traccarSink.uplink.caFile))
        }
        if configuration.httpSink.uplink.enabled {
            named.append(("sinks.http", "ca_file", configuration.httpSink.uplink.caFile))
        }
        return named.compactMap { section, key, path -> ConfigurationIssue? in
            guard let path else { return nil }
            do {
                _ = try Files.contents(path)
                return nil
            } catch {
                let sink = section.dropFirst("sinks.".count)
                return issue(
                    section,
                    key,
                    message: "\(error): the \(sink) sink could not start or connect, and its events would stay "
                        + "in the spool; make the file readable by the agent's user, or change the key"
                )
            }
        }
    }

    /// An issue on the line of `key` in `section` (none when the file leaves the key at its default).
    private func issue(_ section: String, _ key: String, message: String) -> ConfigurationIssue {
        ConfigurationIssue(file: fileName, line: line(of: section, key), section: section, key: key, message: message)
    }

    /// The line of `key` in the table `section` (dotted), if the document sets it.
    private func line(of section: String, _ key: String) -> Int? {
        var table = document.root
        for part in section.split(separator: ".") {
            guard case .table(let child) = table[String(part)]?.value else { return nil }
            table = child
        }
        return table[key]?.line
    }
}
