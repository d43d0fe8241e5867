/// How the list is drawn. Not `Codable`: the app never sends it anywhere.
public struct Layout: Equatable, Sendable {
    public var columns: Int
    public var showsPreview: Bool

    public init(columns: Int = 1, showsPreview: Bool = true) {
        self.columns = columns
        self.showsPreview = showsPreview
    }
}
