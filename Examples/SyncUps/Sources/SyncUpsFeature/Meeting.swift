import Foundation
import Tagged

public struct Meeting: Identifiable, Equatable, Sendable {
    public let id: Tagged<Meeting, UUID>
    public var date: Date
    public var transcript: String

    public init(id: Tagged<Meeting, UUID>, date: Date, transcript: String) {
        self.id = id
        self.date = date
        self.transcript = transcript
    }
}
