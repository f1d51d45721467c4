import Foundation
import Testing
import WaymarkTestSupport

/// Issue 37, item 2: a test across a broker's restart proves something only if the broker persisted. mosquitto
/// started as root becomes the user `mosquitto`; a persistence directory that user cannot write makes it save
/// nothing (`Error saving in-memory database ... Permission denied`) and forget every subscriber's session at the
/// restart, silently. ``MosquittoTestServer/restart()`` checks the broker's database and log at every restart.
@Suite("Test brokers prove they persisted", .serialized)
struct BrokerPersistenceTests {
    @Test("A broker that cannot write its persistence directory is caught at its restart")
    func unwritableDirectoryIsCaught() throws {
        try #require(getuid() == 0, "mosquitto changes its user only when started as root")
        let broker = try MosquittoTestServer(settings: .persistentAsBrokerUser)
        _ = try broker.subscribe("owntracks/#", id: "recorder")
        do {
            try broker.restart()
            Issue.record("the restart did not notice that nothing was saved: \(broker.brokerLog)")
        } catch let error as TestServerError {
            #expect("\(error)".contains("mosquitto did not persist"), "\(error)")
        }
    }

    @Test("The tests' broker, as root with `user root`, persists: its restart succeeds with its database written")
    func theTestsBrokerPersists() throws {
        let broker = try MosquittoTestServer()
        _ = try broker.subscribe("owntracks/#", id: "recorder")
        let stopped = Date()
        try broker.restart()
        #expect(broker.persisted(since: stopped) == nil)
    }
}
