/// Swift type names as a user writes them: `[Repository]`, `Int?`, `[Int: String]`, `Set<String>`,
/// generic arguments qualified by the types they are nested in (`PresentationAction<SyncUpForm.Action>`,
/// where every feature's action is called `Action`), never by their module.
package enum TypeNames {
    /// The names the types listed in `actionTypes:` are dispatched by: each one's last component
    /// (`AddTodo` for `TodoActions.AddTodo`), qualified by its enclosing types as far as needed
    /// for two listed types not to share it, and by its module when nothing else tells them apart.
    static func distinct(_ types: [Any.Type]) -> [String] {
        let paths = types.map { type in
            // NB: without generic arguments (`Feature<Int>.Load` is `Feature.Load`), unless two
            // listed types differ only by them (below).
            var plain = ""
            var depth = 0
            for character in _typeName(type, qualified: true) {
                if character == "<" {
                    depth += 1
                } else if character == ">" {
                    depth -= 1
                } else if depth == 0 {
                    plain.append(character)
                }
            }
            return plain.split(separator: ".").map(String.init)
        }
        var names = paths.indices.map { index in
            let path = paths[index]
            // NB: the module (the first component) is used only when the whole path is shared.
            var length = 1
            while length < path.count - 1,
                paths.indices.contains(where: { $0 != index && paths[$0].suffix(length) == path.suffix(length) })
            {
                length += 1
            }
            if paths.indices.contains(where: { $0 != index && paths[$0].suffix(length) == path.suffix(length) }) {
                length = path.count
            }
            return path.suffix(length).joined(separator: ".")
        }
        // NB: types that differ only by their generic arguments are named with them.
        let shared = names.indices.filter { index in
            names.indices.contains { $0 != index && names[$0] == names[index] }
        }
        for index in shared { names[index] = display(types[index]) }
        return names
    }

    package static func display(_ type: Any.Type) -> String {
        tidy(withoutModules(_typeName(type, qualified: true))[...])
    }

    /// `Tagged.Tagged<App.Member, Foundation.UUID>` as `Tagged<Member, UUID>`: each dotted name
    /// without its module, the outermost one as its last component (as `String(describing:)`).
    static func withoutModules(_ qualified: String) -> String {
        var text = qualified
        // NB: a local type's context prints as `(unknown context at $1234)`, which says nothing.
        while let start = text.range(of: "(unknown context at "),
            let end = text[start.upperBound...].firstIndex(of: ")")
        {
            var after = text.index(after: end)
            if after < text.endIndex, text[after] == "." { after = text.index(after: after) }
            text.removeSubrange(start.lowerBound..<after)
        }
        var result = ""
        var name = ""
        // NB: the outermost type, and the arguments of the ones Swift writes as sugar (`Speed?`,
        // `[Speed]`), print as `String(describing:)` does; deeper arguments with their parents.
        var depth = 0
        var bare: Set<Int> = [0]
        func flush() {
            guard !name.isEmpty else { return }
            let components = name.split(separator: ".")
            let base: String
            if bare.contains(depth) {
                base = components.last.map(String.init) ?? name
            } else {
                base = components.count > 1 ? components.dropFirst().joined(separator: ".") : name
            }
            if bare.contains(depth), ["Optional", "Array", "Dictionary"].contains(base) { bare.insert(depth + 1) }
            // NB: the runtime names the existential `any Error` as its protocol, `Swift.Error`.
            result += name == "Swift.Error" ? "any Error" : base
            name = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                name.append(character)
                continue
            }
            flush()
            if character == "<" { depth += 1 }
            if character == ">" {
                bare.remove(depth)
                depth -= 1
            }
            result.append(character)
        }
        flush()
        return result
    }

    static func tidy(_ name: Substring) -> String {
        guard let open = name.firstIndex(of: "<"), name.last == ">" else { return String(name) }
        let base = name[..<open]
        let arguments = splitArguments(name[name.index(after: open)..<name.index(before: name.endIndex)]).map(tidy)
        switch (base, arguments.count) {
        case ("Array", 1): return "[" + arguments[0] + "]"
        case ("Optional", 1):
            // NB: an optional function type needs parentheses to stay one: `(() -> ())?`, an existential: `(any Error)?`.
            return arguments[0].contains("->") || arguments[0].hasPrefix("any ")
                ? "(" + arguments[0] + ")?" : arguments[0] + "?"
        case ("Dictionary", 2): return "[" + arguments[0] + ": " + arguments[1] + "]"
        default: return base + "<" + arguments.joined(separator: ", ") + ">"
        }
    }

    /// `Int, Array<String>` into its top-level parts.
    private static func splitArguments(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts.map { $0.drop { $0 == " " } }
    }
}
