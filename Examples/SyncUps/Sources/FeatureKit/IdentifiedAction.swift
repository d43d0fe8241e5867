/// An action of one element of a collection of child features, by the element's id.
public indirect enum IdentifiedAction<ID: Hashable, Action> {
    case element(id: ID, action: Action)
}

extension IdentifiedAction: Sendable where ID: Sendable, Action: Sendable {}
