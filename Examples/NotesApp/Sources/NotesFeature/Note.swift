import Foundation

/// One note, as the app's sync API sends it.
public struct Note: Codable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var pinned: Bool
    public var tags: Set<String>
    public var link: URL?
    public var createdAt: Date

    /// NB: the API's snake_case names; the shell shows the Swift names (`createdAt`).
    enum CodingKeys: String, CodingKey {
        case id, title, pinned, tags, link
        case createdAt = "created_at"
    }

    public init(
        id: UUID, title: String, pinned: Bool = false, tags: Set<String> = [], link: URL? = nil, createdAt: Date
    ) {
        self.id = id
        self.title = title
        self.pinned = pinned
        self.tags = tags
        self.link = link
        self.createdAt = createdAt
    }
}
