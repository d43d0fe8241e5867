/// How the list is ordered. NB: the raw values differ from the case names on purpose, so both
/// spellings can be typed back.
public enum SortOrder: String, Codable, CaseIterable, Sendable {
    case title = "by-title"
    case created = "by-date"
    case pinnedFirst = "pinned-first"
}
