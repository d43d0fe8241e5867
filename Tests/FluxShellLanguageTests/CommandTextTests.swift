import PropertyBased
import Testing

@testable import FluxShellJSON
@testable import FluxShellLanguage
@testable import FluxShellSystem
@testable import FluxShellValues

/// The command printer is the parser's inverse: `parse(print(c)) == c` for generated commands
/// of every kind (swift-property-based draws the seed of each command and shrinks a failing one).
struct CommandTextTests {
    /// Names, labels and path keys.
    static let words = ["counter", "todos", "a", "list_2", "rename", "title", "x1"]
    /// Values, the awkward ones first: what reads as another type when bare, quotes, escapes.
    static let values: [JSONValue] = [
        .int(0), .int(-7), .int(.min), .int(.max), .double(0.5), .double(-1e300), .double(2.0), .bool(true),
        .bool(false), .null, .string("milk"), .string("Buy milk"), .string(""), .string("true"), .string("null"),
        .string("12"), .string("$count"), .string("a:b"), .string("say \"hi\"\n"), .string("é ✓"),
        .string("out/x.scenario"), .array([]), .array([.int(1), .string("two")]),
        .object(JSONObject([("id", .int(1)), ("tags", .array([.string("x")]))])),
    ]

    /// A command made from `seed`, of any kind.
    static func command(_ seed: Int) -> Command {
        var random = SeededRandom(seed: UInt64(bitPattern: Int64(seed)))
        func word() -> String { words.randomElement(using: &random)! }
        func value() -> JSONValue { values.randomElement(using: &random)! }
        func path() -> ValuePath {
            var text = word()
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                switch Int.random(in: 0...3, using: &random) {
                case 0: text += "." + word()
                case 1: text += "[\(Int.random(in: 0...99, using: &random))]"
                case 2: text += "[*]"
                default: text += "[id: \(Int.random(in: 1...9, using: &random))]"
                }
            }
            return try! ValuePath.parse(text[...])
        }
        func invocation() -> ActionInvocation {
            ActionInvocation(
                name: word(),
                arguments: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .init(label: Bool.random(using: &random) ? word() : nil, value: value())
                })
        }
        /// An argument at `index` with `$PATH`s anywhere inside its JSON: the value (a `null` where
        /// each stands) and the paths read, in the order they are written.
        func reading(at index: Int) -> (JSONValue, [ArgumentPath]) {
            var reads: [ArgumentPath] = []
            func nested(_ place: [ValuePath.Segment]) -> JSONValue {
                if !place.isEmpty, place.count >= 3 || Bool.random(using: &random) {
                    guard Int.random(in: 0...2, using: &random) == 0 else { return value() }
                    reads.append(ArgumentPath(index: index, within: ValuePath(place), path: path()))
                    return .null
                }
                let count = Int.random(in: 0...3, using: &random)
                if Bool.random(using: &random) { return .array((0..<count).map { nested(place + [.index($0)]) }) }
                return .object(
                    JSONObject(
                        (0..<count).map { number in
                            let key = word() + "\(number)"
                            return (key, nested(place + [.key(key)]))
                        }))
            }
            let built = nested([])
            guard reads.isEmpty else { return (built, reads) }
            return (
                .array([built, .null]),
                [ArgumentPath(index: index, within: ValuePath([.index(1)]), path: path())]
            )
        }
        switch Int.random(in: 0...22, using: &random) {
        case 0:
            return .help(
                topic: Bool.random(using: &random) ? CommandParser.commandWords.randomElement(using: &random) : nil)
        case 1: return .stores
        case 2: return .load(name: word(), alias: Bool.random(using: &random) ? word() : nil)
        case 3: return .use(alias: word())
        case 4: return .actions()
        case 5, 6: return .dispatch(invocation())
        case 7:
            var reading = invocation()
            reading.arguments.append(.init(label: Bool.random(using: &random) ? word() : nil, value: .null))
            return .dispatchReading(reading, paths: [ArgumentPath(index: reading.arguments.count - 1, path: path())])
        case 8: return .state(path: Bool.random(using: &random) ? .root : path())
        case 9: return .history
        case 10: return .undo(steps: Int.random(in: 1...1000, using: &random))
        case 11: return .redo(steps: Int.random(in: 1...1000, using: &random))
        case 12: return .reset
        case 13, 14:
            var op = Expectation.Operator.allCases.randomElement(using: &random)!
            let operand: Operand
            switch Int.random(in: 0...2, using: &random) {
            case 0: operand = .literal(value())
            case 1: operand = .path(path())
            default:
                // `*` where a value stands, whole or inside an array or object (`==` only).
                op = .equal
                let inside: [ValuePattern] = [
                    .any, ValuePattern(value: .array([value(), .null]), wildcards: [[.index(1)]]),
                    ValuePattern(
                        value: .object(JSONObject([("id", value()), ("at", .object(JSONObject([("time", .null)])))])),
                        wildcards: [[.key("at"), .key("time")]]),
                ]
                operand = .pattern(inside.randomElement(using: &random)!)
            }
            return .expect(Expectation(path: Bool.random(using: &random) ? .root : path(), op: op, value: operand))
        case 15: return .why(path: path())
        case 16: return .invariants
        case 17: return .watch((0..<Int.random(in: 0...3, using: &random)).map { _ in path() })
        case 18: return .unwatch((0..<Int.random(in: 0...3, using: &random)).map { _ in path() })
        case 19:
            guard
                case .string(let file) = [
                    JSONValue.string("out.scenario"), .string("my file.scenario"), .string("a/b-c.txt"),
                ]
                .randomElement(using: &random)!
            else { return .quit }
            return .save(file: file)
        case 20: return .exhaustive(Bool.random(using: &random))
        case 21:
            var made = invocation()
            let (argument, reads) = reading(at: made.arguments.count)
            made.arguments.append(.init(label: Bool.random(using: &random) ? word() : nil, value: argument))
            return .dispatchReading(made, paths: reads)
        default: return .quit
        }
    }

    @Test func parsingWhatThePrinterWritesGivesTheCommandBack() async {
        // The commands drawn hold `$PATH`s inside JSON arguments too.
        #expect(
            (0..<500).contains { seed in
                guard case .dispatchReading(_, let paths) = Self.command(seed) else { return false }
                return paths.contains { $0.within.segments.count > 1 }
            })
        await propertyCheck(input: Gen.int(in: 0...Int.max)) { seed in
            let command = Self.command(seed)
            let line = command.description
            #expect(
                (try? CommandParser.parse(line).command) == command, "\(String(reflecting: command)) printed as \(line)"
            )
        }
    }

    /// The printed forms people read in saved scenarios: one step of undo is `undo`, the root
    /// state is `state`, a `$PATH` argument is printed where it was typed.
    @Test func printedFormsAreTheShortestThatReadBack() throws {
        #expect(Command.undo(steps: 1).description == "undo")
        #expect(Command.redo(steps: 3).description == "redo 3")
        #expect(Command.state(path: .root).description == "state")
        #expect(Command.load(name: "todos", alias: "list").description == "load todos as list")
        #expect(
            try CommandParser.parse("dispatch add   5  title:  $todos[0].title").command?.description
                == "dispatch add 5 title: $todos[0].title")
        #expect(Command.save(file: "my file.scenario").description == #"save "my file.scenario""#)
        #expect(
            try CommandParser.parse(#"dispatch add  [ $a , {"id" : $todos[id: "x y"].id, "n": null} ]"#).command?
                .description == #"dispatch add [$a,{"id":$todos[id: "x y"].id,"n":null}]"#)
    }
}
