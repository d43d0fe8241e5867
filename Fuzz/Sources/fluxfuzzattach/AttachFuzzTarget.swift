import FluxCore
import FluxShell

#if canImport(Glibc)
    import Glibc
#endif

// The agent's line handling (`AttachedShell`): whatever bytes a client sends, in whatever
// pieces, with the app dispatching between them, nothing may crash or hang, every answer is a
// whole line, and the app's store is only ever changed by actions.

struct Counter: State, Equatable {
    var count = 0
    var names: [String] = []
}

enum CounterAction: Action {
    case increment
    case add(Int)
    case name(String)
}

struct CounterMutation: Mutation {
    func mutate(action: CounterAction, state: inout Counter) {
        switch action {
        case .increment: state.count &+= 1
        case .add(let amount): state.count &+= amount
        case .name(let name): state.names.append(name)
        }
    }
}

/// Inputs may say `save FILE`: run them inside a throwaway folder, never the checkout.
private let sandbox: Bool = {
    var template = Array("/tmp/fluxfuzzattach-XXXXXX".utf8CString)
    guard let folder = mkdtemp(&template) else { return false }
    return chdir(folder) == 0
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard sandbox else { fatalError("fluxfuzzattach: cannot enter a temporary folder") }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let flux = Flux(state: Counter(), mutation: CounterMutation())
    // NB: a small line limit and inbox, so that long lines and dropped actions are reached.
    guard
        let shell = try? AttachedShell(
            serving: [LiveStore(flux, as: "counter")], name: "fuzz", queueLimit: 4, maximumLineLength: 256,
            wake: {})
    else { fatalError("fluxfuzzattach: the shell cannot attach") }
    var output = OutputBuffer()
    // The first byte cuts the input in pieces; between pieces, the app dispatches by itself.
    let piece = max(1, Int(bytes.first ?? 1) % 64)
    var offset = 0
    while offset < size, !shell.isFinished {
        let end = min(size, offset + piece)
        shell.receive(bytes[offset..<end], to: &output)
        // NB: only while attached: a shell that left sees no more of the app.
        if bytes[offset] & 1 == 1, !shell.isFinished { flux.dispatcher.dispatch(.increment) }
        if bytes[offset] & 6 == 6 { shell.writeAppSteps(to: &output) }
        offset = end
    }
    shell.endOfInput(to: &output)
    shell.writeAppSteps(to: &output)
    var last: UInt8 = 0x0A
    output.forEachByte { last = $0 }
    precondition(last == 0x0A, "an answer ends in the middle of a line")
    // The session's view of the store is the app's, once everything was taken.
    if let state = shell.session.activeState, case .object(let object) = state, case .int(let count)? = object["count"]
    {
        precondition(
            count == flux.store.state.count,
            "the shell and the app disagree: \(count) against \(flux.store.state.count)")
    }
    return 0
}
