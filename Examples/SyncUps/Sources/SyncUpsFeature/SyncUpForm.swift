import Foundation
import Tagged

/// The form that edits a new sync-up before it is added.
public struct SyncUpForm: Equatable, Sendable {
    public var syncUp: SyncUp

    public enum Action: Sendable {
        case setTitle(String)
        case setDuration(Duration)
        case setTheme(Theme)
        case addAttendee(id: Attendee.ID, name: String)
        case removeAttendees(IndexSet)
    }

    public init(syncUp: SyncUp) { self.syncUp = syncUp }

    mutating func apply(_ action: Action) {
        switch action {
        case .setTitle(let title): syncUp.title = title
        case .setDuration(let duration): syncUp.duration = max(duration, .zero)
        case .setTheme(let theme): syncUp.theme = theme
        case .addAttendee(let id, let name): syncUp.attendees.append(Attendee(id: id, name: name))
        case .removeAttendees(let offsets):
            for offset in offsets.reversed() where offset < syncUp.attendees.count {
                syncUp.attendees.remove(at: offset)
            }
        }
    }
}
