/// An action of a feature presented by its parent (a sheet, a form), as a navigation framework
/// wraps it: the child's own action, or its dismissal.
public enum PresentationAction<Action> {
    case dismiss
    indirect case presented(Action)
}

extension PresentationAction: Sendable where Action: Sendable {}
