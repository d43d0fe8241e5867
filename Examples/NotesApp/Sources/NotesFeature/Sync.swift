import Foundation

/// Where the notes stand with the server.
public enum Sync: Codable, Equatable, Sendable {
    case idle
    case syncing(since: Date)
    case failed(reason: String, attempts: Int)
}
