public enum Theme: String, CaseIterable, Equatable, Sendable {
    case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy, purple, seafoam,
        sky, tan, teal, yellow
}
