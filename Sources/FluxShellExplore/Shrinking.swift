import FluxShellJSON
import FluxShellLanguage
import FluxShellSession
import FluxShellValues

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Shrinking a failing run: fewer actions first (delta debugging over the sequence), then smaller
/// arguments (numbers of every type toward zero by bisection, then toward fewer decimals; shorter
/// strings and arrays; earlier enum cases; `null`), each candidate kept only when the same check
/// still fails. Then the scenario that fails the same way under `fluxsh test`.
extension Explorer {
    func shrink(_ found: (check: Check, message: String, step: Int?), steps: [Step], run: Int, runSeed: UInt64)
        -> Failure
    {
        var actions = steps.map(\.command)
        // NB: a check after an action fails whatever follows it: the rest goes at once.
        if let step = found.step { actions = Array(actions.prefix(step + 1)) }
        let original = actions
        let target = found.check
        var budget = 20_000
        // NB: a replay that differs may differ only some of the time (a `Set`'s order depends on
        // where its storage is): a candidate counts as failing when one of three tries fails.
        let tries = target == .replayDiffers ? 3 : 1
        actions = minimize(actions) { candidate in
            for _ in 0..<tries where budget > 0 {
                budget -= 1
                if self.run(candidate) == target { return true }
            }
            return false
        }
        return failure(target, message: found.message, run: run, runSeed: runSeed, original: original, minimal: actions)
    }

    /// The failure of the `minimal` actions shrunk from `original`, run once more for their diff
    /// lines and their scenario. The message is that run's, when it failed and `message` is
    /// not `fixed`, else `message`.
    func failure(
        _ check: Check, message: String, fixed: Bool = false, run: Int, runSeed: UInt64, original: [Command],
        minimal: [Command]
    ) -> Failure {
        var source = ActionSource.fixed(minimal)
        var ignored = Coverage()
        let outcome = execute(&source, coverage: &ignored)
        return Failure(
            check: check, message: fixed ? message : outcome.failure?.message ?? message, run: run, runSeed: runSeed,
            commands: original,
            minimal: outcome.steps, scenario: scenarioText(outcome, check: check), minimalOutputs: outcome.outputs)
    }

    /// The smallest sequence found for which `fails` holds: fewer actions, then smaller arguments
    /// (for a failure no check of this process sees, such as a trap in a child process).
    public func minimize(_ actions: [Command], fails: ([Command]) -> Bool) -> [Command] {
        var current = fewerActions(actions, fails)
        current = smallerArguments(current, fails)
        return fewerActions(current, fails)
    }

    /// The scenario of actions whose last one traps: no expected diff lines (a replay cannot
    /// print past the trap), so `fluxsh test` runs them and fails at the last, which traps.
    public func trapScenario(_ actions: [Command], message: String) -> String {
        let program = catalog.programName
        var scenario = ScenarioText()
        scenario.comment(
            "Found by \(commandLine): the last action traps."
        )
        scenario.comment(message)
        scenario.comment(
            "'\(program) test FILE' fails at the last line, which traps, until the bug is fixed; then it guards it.")
        add(actions, to: &scenario)
        return scenario.text
    }

    /// `actions` as a script for `run` and `test`: the stores loaded, then one line each.
    public func script(of actions: [Command]) -> String {
        var scenario = ScenarioText()
        add(actions, to: &scenario)
        return scenario.text
    }

    /// Adds the stores' `load` lines and a line for each step (`dispatch ACTION`, `advance`).
    private func add(_ actions: [Command], to scenario: inout ScenarioText) {
        for name in options.stores { scenario.command(.load(name: name, alias: nil)) }
        for command in actions { scenario.command(command) }
    }

    /// Delta debugging: removes chunks of the sequence, from halves down to single actions, while
    /// the check still fails.
    private func fewerActions(_ actions: [Command], _ fails: ([Command]) -> Bool)
        -> [Command]
    {
        var current = actions
        var parts = 2
        while current.count >= 2 {
            let size = (current.count + parts - 1) / parts
            var removed = false
            var start = 0
            while start < current.count {
                let end = min(start + size, current.count)
                let candidate = Array(current[..<start] + current[end...])
                if fails(candidate) {
                    current = candidate
                    removed = true
                    break
                }
                start = end
            }
            if removed {
                parts = max(parts - 1, 2)
            } else {
                if size == 1 { break }
                parts = min(parts * 2, current.count)
            }
        }
        if current.count == 1, fails([]) { return [] }
        return current
    }

    /// Each argument made smaller while the check still fails: `null` for the whole of it, then
    /// each value inside it (a struct's members, an enum payload's, array elements).
    private func smallerArguments(_ actions: [Command], _ fails: ([Command]) -> Bool)
        -> [Command]
    {
        var current = actions
        for index in current.indices {
            guard let invocation = current[index].dispatched else { continue }
            for argument in invocation.arguments.indices {
                if current[index].dispatched?.arguments[argument].value != .null {
                    var candidate = current
                    candidate[index].dispatched?.arguments[argument].value = .null
                    if fails(candidate) {
                        current = candidate
                        continue
                    }
                }
                let argumentValue = current[index].dispatched?.arguments[argument].value ?? .null
                for place in Self.places(in: argumentValue) {
                    func trying(_ value: JSONValue) -> [Command] {
                        var candidate = current
                        if let old = candidate[index].dispatched?.arguments[argument].value {
                            candidate[index].dispatched?.arguments[argument].value = Self.replacing(
                                old, at: place[...], with: value)
                        }
                        return candidate
                    }
                    guard
                        let whole = current[index].dispatched?.arguments[argument].value,
                        let value = Self.value(in: whole, at: place[...])
                    else { continue }
                    current = smaller(value, trying, fails) ?? current
                }
            }
            current = earlierCases(current, at: index, fails)
        }
        return current
    }

    /// The smallest of the candidates for `value` that still fails (`trying` puts a candidate in
    /// place); `nil` when none is smaller.
    private func smaller(
        _ value: JSONValue, _ trying: (JSONValue) -> [Command], _ fails: ([Command]) -> Bool
    ) -> [Command]? {
        switch value {
        case .int, .double, .number:
            return smallerNumber(value, trying, fails)
        case .string(let text) where !text.isEmpty:
            for candidate in ["", String(text.prefix(1)), String(text.prefix(text.count / 2))]
            where candidate.count < text.count {
                let attempt = trying(.string(candidate))
                if fails(attempt) { return attempt }
            }
            return nil
        case .array(let elements) where !elements.isEmpty:
            for candidate in [[], [elements[0]]] where candidate.count < elements.count {
                let attempt = trying(.array(candidate))
                if fails(attempt) { return attempt }
            }
            return nil
        case .bool(true):
            let attempt = trying(.bool(false))
            return fails(attempt) ? attempt : nil
        default:
            return nil
        }
    }

    /// A number of any type (an integer of any width, `Double`, `Float`, `Decimal`) made simpler
    /// while the check still fails: zero; else the whole number nearest zero that still fails,
    /// by bisection (when failing is monotonic, `lower by: 11` and up fails: 11; `-2.25` below
    /// zero fails: `-1`); else the number with fewer decimals (`0.75`: `0.7`). `nil` when none is
    /// simpler.
    private func smallerNumber(
        _ value: JSONValue, _ trying: (JSONValue) -> [Command], _ fails: ([Command]) -> Bool
    ) -> [Command]? {
        // NB: as a `Decimal`, which holds every integer of 128 bits and every double's shortest
        // text exactly, and prints back by its own rule (an `Int` when it is one).
        func attempt(_ candidate: Decimal) -> [Command] { trying(ValueReader.read(candidate)) }
        let number = Self.decimal(value)
        if number?.isZero == true { return nil }
        if fails(attempt(0)) { return attempt(0) }
        guard let number, !number.isNaN else { return nil }
        let whole = Self.truncated(number, places: 0)
        var passing = Decimal(0)
        var failing = number
        if whole != number {
            guard !whole.isZero, fails(attempt(whole)) else {
                let places = Self.decimalPlaces(of: number)
                guard places > 1 else { return nil }
                for count in 1..<places {
                    let candidate = Self.truncated(number, places: count)
                    if !candidate.isZero, fails(attempt(candidate)) { return attempt(candidate) }
                }
                return nil
            }
            failing = whole
        }
        while (failing - passing).magnitude > 1 {
            let middle = Self.truncated(passing + (failing - passing) / 2, places: 0)
            if fails(attempt(middle)) { failing = middle } else { passing = middle }
        }
        return failing == number ? nil : attempt(failing)
    }

    /// A printed number as a `Decimal`; `nil` beyond a `Decimal`'s range (`1e300`).
    static func decimal(_ value: JSONValue) -> Decimal? {
        switch value {
        case .int(let number): Decimal(number)
        case .double(let number) where number.isFinite: Decimal(string: String(number))
        case .number(let text): Decimal(string: text)
        default: nil
        }
    }

    /// `number` cut to `places` decimals, toward zero: `-2.25` to 0 places is `-2`.
    static func truncated(_ number: Decimal, places: Int) -> Decimal {
        let text = number.description
        guard let point = text.firstIndex(of: ".") else { return number }
        let kept = text[..<point] + (places == 0 ? "" : text[point...].prefix(places + 1))
        return Decimal(string: String(kept)) ?? number
    }

    /// How many decimals `number` has as a `Decimal` writes it: `-2.25` has 2.
    static func decimalPlaces(of number: Decimal) -> Int {
        let text = number.description
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: point, to: text.endIndex) - 1
    }

    /// The places inside an argument whose values shrink, outermost first: the argument itself,
    /// then the members of its objects and the elements of its arrays (4 levels deep at most).
    static func places(in value: JSONValue, at path: [ValuePath.Segment] = []) -> [[ValuePath.Segment]] {
        var places = [path]
        guard path.count < 4 else { return places }
        switch value {
        case .object(let object):
            for (key, member) in object.members { places += Self.places(in: member, at: path + [.key(key)]) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                places += Self.places(in: element, at: path + [.index(index)])
            }
        default:
            break
        }
        return places
    }

    static func value(in root: JSONValue, at path: ArraySlice<ValuePath.Segment>) -> JSONValue? {
        guard let first = path.first else { return root }
        switch (first, root) {
        case (.key(let key), .object(let object)): return object[key].flatMap { value(in: $0, at: path.dropFirst()) }
        case (.index(let index), .array(let elements)) where index < elements.count:
            return value(in: elements[index], at: path.dropFirst())
        default: return nil
        }
    }

    static func replacing(_ root: JSONValue, at path: ArraySlice<ValuePath.Segment>, with new: JSONValue) -> JSONValue {
        guard let first = path.first else { return new }
        switch (first, root) {
        case (.key(let key), .object(var object)):
            if let member = object[key] { object[key] = replacing(member, at: path.dropFirst(), with: new) }
            return .object(object)
        case (.index(let index), .array(var elements)) where index < elements.count:
            elements[index] = replacing(elements[index], at: path.dropFirst(), with: new)
            return .array(elements)
        default:
            return root
        }
    }

    /// An enum argument given by name made an earlier case of its type, when that still fails.
    private func earlierCases(_ actions: [Command], at index: Int, _ fails: ([Command]) -> Bool)
        -> [Command]
    {
        guard let invocation = actions[index].dispatched, let signature = catalogSignature(of: invocation) else {
            return actions
        }
        var current = actions
        for (position, argument) in invocation.arguments.enumerated() {
            guard case .string(let word) = argument.value, position < signature.parameters.count else { continue }
            let choices = signature.parameters[position].choices
            guard let at = choices.firstIndex(of: word) else { continue }
            for earlier in choices[..<at] {
                var candidate = current
                candidate[index].dispatched?.arguments[position].value = .string(earlier)
                if fails(candidate) {
                    current = candidate
                    break
                }
            }
        }
        return current
    }

    private func catalogSignature(of action: ActionInvocation) -> ActionSignature? {
        for name in options.stores {
            if let signature = catalog[name]?.actions.first(where: { $0.name == action.name }) { return signature }
        }
        return nil
    }

    // MARK: - The scenario

    /// The minimal run as a scenario: `load` lines, each action with its expected diff lines (a
    /// refused one as `! dispatch`), then the check that fails.
    func scenarioText(_ outcome: Outcome, check: Check) -> String {
        let program = catalog.programName
        var scenario = ScenarioText()
        scenario.comment(
            "Found by \(commandLine): \(check).")
        scenario.comment("Fails under '\(program) test FILE' until the bug is fixed; then it guards it.")
        for name in options.stores { scenario.command(.load(name: name, alias: nil)) }
        for (step, printed) in zip(outcome.steps, outcome.lines) {
            scenario.command(
                step.command, expectsFailure: step.wasRefused, diff: step.wasRefused ? [] : printed)
        }
        let replayed = replayed(outcome.steps.map(\.command))
        func state(of store: String, in run: ExploreRun) -> JSONValue {
            run.session.states().first { $0.alias == store }?.state ?? .null
        }
        switch check {
        case .invariant(let text):
            // NB: as typed, so that the scenario reads as the command line that found it.
            scenario.line("expect " + text)
        case .storeInvariant(let store, _):
            scenario.command(.use(alias: store))
            scenario.command(.invariants)
        case .refusedActionChangedState(let store):
            // The state before the refused action, which the replay does not keep either.
            scenario.expectState(
                state(of: store, in: self.replayed(outcome.steps.dropLast().map(\.command))), of: store)
        case .replayDiffers:
            scenario.comment("The diff lines above are the first run's; a replay prints others.")
        case .undoDoesNotRestore(let store):
            scenario.command(.undo(steps: replayed.session.undoableSteps))
            scenario.expectState(state(of: store, in: freshRun()), of: store)
        case .trap:
            scenario.comment("The last action trapped.")
        case .redoDoesNotRestore(let store):
            let done = replayed.session.undoableSteps
            let final = state(of: store, in: replayed)
            scenario.command(.undo(steps: done))
            scenario.command(.redo(steps: done))
            scenario.expectState(final, of: store)
        }
        // NB: a scenario that ends with effects running fails: what they would still do is no
        // part of the failure found, so they are cancelled, and the scenario passes once it is fixed.
        if check != .trap, !replayed.session.runningEffects.isEmpty { scenario.command(.cancel(id: nil)) }
        return scenario.text
    }
}

extension Command {
    /// The action of a `dispatch` step of an exploration (shrinking changes its arguments).
    var dispatched: ActionInvocation? {
        get {
            guard case .dispatch(let invocation) = self else { return nil }
            return invocation
        }
        set {
            guard let newValue, case .dispatch = self else { return }
            self = .dispatch(newValue)
        }
    }

    /// Whether it is the step that seeds a run's random numbers.
    public var isSeed: Bool {
        if case .seed = self { return true }
        return false
    }

    /// A step as a report names it: the action (`add 5`), or the command (`advance`).
    public var stepText: String { dispatched?.description ?? description }
}
