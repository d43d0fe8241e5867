import FluxShell

/// A store with effects that take time, written as a TCA feature is: a sweep answers half a
/// second later; an overloaded sweep traps when it wakes (a planted bug in an effect).
struct Radar {
    var contacts: [String] = []
    var sweeping = false
}

enum RadarAction {
    case sweep
    case overload
    case contact(String)
    case clear
}

func radarReduce(_ state: inout Radar, _ action: RadarAction) {
    switch action {
    case .sweep, .overload: state.sweeping = true
    case .contact(let name):
        state.contacts.append(name)
        state.sweeping = false
    case .clear: state.contacts = []
    }
}

func radarEffect(_ action: RadarAction, _ state: Radar, _ context: EffectContext<RadarAction>) async throws
    -> [RadarAction]
{
    switch action {
    case .sweep:
        try await context.environment.clock.sleep(for: .milliseconds(500))
        return [.contact("echo-\(context.environment.uuid().uuidString.suffix(4))")]
    case .overload:
        try await context.environment.clock.sleep(for: .seconds(1))
        let overloaded = [Int]()
        return [.contact("\(overloaded[0])")]
    case .contact, .clear:
        return []
    }
}

let radarDefinition = StoreDefinition("radar", state: Radar(), reduce: radarReduce, effect: radarEffect)
