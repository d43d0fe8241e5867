#if canImport(Testing)
    import FluxShellRunner
    import FluxShellSystem
    import Foundation
    import Testing

    extension ScenarioRunner.Result {
        /// Records each failure as an issue of the running test (Swift Testing), located at the
        /// scenario's own line, so that the test's report, and an editor, point at the line of the
        /// `.scenario` file that failed rather than at the test.
        ///
        /// ```swift
        /// @Test(arguments: try ScenarioRunner.discover(["Scenarios"]))
        /// func scenario(_ path: String) {
        ///     ScenarioRunner(catalog: catalog).run(path).recordIssues()
        /// }
        /// ```
        ///
        /// - Returns: whether the scenario passed.
        @discardableResult
        public func recordIssues() -> Bool {
            for (comment, location) in issues { Issue.record(comment, sourceLocation: location) }
            return passed
        }

        /// Each failure as `recordIssues()` records it: the text `fluxsh test` prints for it, without
        /// its `FILE:LINE:`, and the place in the scenario file (its line, or line 1 for a failure of
        /// the whole file).
        public var issues: [(comment: Comment, location: Testing.SourceLocation)] {
            failures.map { failure in
                let location = failure.location ?? FluxShellSystem.SourceLocation(file: path, line: 1)
                let text = Renderer(locatesErrors: false).lines(of: failure).joined(separator: "\n")
                let file = URL(fileURLWithPath: location.file).standardizedFileURL
                return (
                    Comment(rawValue: text),
                    Testing.SourceLocation(
                        fileID: "\(file.deletingLastPathComponent().lastPathComponent)/\(file.lastPathComponent)",
                        filePath: file.path, line: max(1, location.line),
                        column: 1)
                )
            }
        }
    }
#endif
