import MiniRedux

// The app's actions, as a ReSwift app declares them: one struct a user intent, each conforming to
// the library's `Action` marker; the reducer tells them apart by type.

/// Adds a to-do at the end of the list (an empty title adds nothing).
public struct AddTodo: Action {
    public let title: String

    public init(title: String) {
        self.title = title
    }
}

/// Marks the to-do with that id done, or not done again.
public struct ToggleTodo: Action {
    public let id: Int

    public init(id: Int) {
        self.id = id
    }
}

/// Gives the to-do with that id another title (an empty title changes nothing).
public struct EditTodo: Action {
    public let id: Int
    public let title: String

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// Renames the list.
public struct RenameToDoList: Action {
    public let newName: String

    public init(newName: String) {
        self.newName = newName
    }
}

/// Removes every completed to-do.
public struct ClearCompleted: Action {
    public init() {}
}

/// Chooses which to-dos the list shows: one filter, or the next one in turn.
public enum SetVisibility: Action {
    case show(VisibilityFilter)
    case cycle
}
