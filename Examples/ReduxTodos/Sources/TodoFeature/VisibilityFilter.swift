/// Which to-dos the list shows.
public enum VisibilityFilter: String, Sendable {
    case all
    case active
    case completed
}
