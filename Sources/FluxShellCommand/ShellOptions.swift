import FluxShell

/// How the modes that run commands one by one (the shell, `run` and `attach`) print and stop:
/// what ``CommonOptions`` parsed, or its defaults for a command line with no arguments, which
/// is never handed to the parser (see ``FluxShellMain/run(catalog:version:arguments:)``).
struct ShellOptions {
    var format = Renderer.Format.text
    var noColor = false
    var echo = false
    var bail = false

    /// These options again, for a child process of the same command.
    var arguments: [String] {
        ["--format=\(format.rawValue)"] + (noColor ? ["--no-color"] : []) + (echo ? ["--echo"] : [])
            + (bail ? ["--bail"] : [])
    }
}
