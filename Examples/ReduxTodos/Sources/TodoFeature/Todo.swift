/// One to-do of the list.
public struct Todo: Equatable, Sendable {
    public let id: Int
    public var title: String
    public var completed = false

    public init(id: Int, title: String, completed: Bool = false) {
        self.id = id
        self.title = title
        self.completed = completed
    }
}
