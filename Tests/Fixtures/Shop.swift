import FluxCore

// An app's own store, as a FluxShell user writes it: knows FluxCore only.

package struct ShopState: State, Equatable {
    package var items: [String] = []
    package var total = 0
    package var note: String?
    package var bumps = 0

    package init(items: [String] = [], total: Int = 0, note: String? = nil, bumps: Int = 0) {
        self.items = items
        self.total = total
        self.note = note
        self.bumps = bumps
    }
}

package enum ShopAction: Action {
    case clear
    case add(title: String, quantity: Int)
    case note(String?)
    case bump
    /// No text form: a closure.
    case attach(@Sendable () -> Void)
}

package struct ShopMutation: Mutation, Sendable {
    package init() {}

    package func mutate(action: ShopAction, state: inout ShopState) {
        switch action {
        case .clear:
            state.items = []
            state.total = 0
        case .add(let title, let quantity):
            state.items.append(title)
            state.total += quantity
        case .note(let note): state.note = note
        case .bump: state.bumps += 1
        case .attach: break
        }
    }
}

/// The middleware of the app: a `note` is answered at once by a `bump`.
package func bumpingOnNote() -> AnyMiddleware<ShopAction> {
    AnyMiddleware(didDispatch: { action, dispatcher in
        if case .note = action { dispatcher.dispatch(.bump) }
    })
}

/// The shell's `effect` that does what `bumpingOnNote` does in the app.
@Sendable package func bumpOnNote(_ action: ShopAction, _ state: ShopState) -> [ShopAction] {
    if case .note = action { [.bump] } else { [] }
}
