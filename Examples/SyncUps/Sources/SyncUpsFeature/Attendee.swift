import Foundation
import Tagged

public struct Attendee: Identifiable, Equatable, Sendable {
    public let id: Tagged<Attendee, UUID>
    public var name: String

    public init(id: Tagged<Attendee, UUID>, name: String) {
        self.id = id
        self.name = name
    }
}
