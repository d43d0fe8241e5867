import Foundation
import IdentifiedCollections
import Tagged

/// A recurring meeting: who attends, how long it lasts, what was said.
public struct SyncUp: Identifiable, Equatable, Sendable {
    public let id: Tagged<SyncUp, UUID>
    public var attendees: IdentifiedArrayOf<Attendee> = []
    public var duration: Duration = .seconds(300)
    public var meetings: IdentifiedArrayOf<Meeting> = []
    public var theme: Theme = .bubblegum
    public var title = ""

    public init(id: Tagged<SyncUp, UUID>, title: String = "") {
        self.id = id
        self.title = title
    }

    /// Each attendee's share of the meeting.
    public var durationPerAttendee: Duration {
        attendees.isEmpty ? duration : duration / attendees.count
    }
}
