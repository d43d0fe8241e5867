/// A JUnit XML report of a scenario run: one test case per scenario, with one `<failure>` that
/// holds all of its failures (the schema allows one), and a skipped test case for each scenario
/// `--bail` left unstarted.
package enum JUnitReport {
    public static func xml(for results: [ScenarioRunner.Result], notRun: [String] = [], seconds: Double) -> String {
        let failed = results.filter { !$0.passed }.count
        let tests = results.count + notRun.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="fluxsh test" tests="\#(tests)" failures="\#(failed)" time="\#(format(seconds))">"#
            + "\n"
        xml +=
            #"  <testsuite name="scenarios" tests="\#(tests)" failures="\#(failed)" errors="0" skipped="\#(notRun.count)" time="\#(format(seconds))">"#
            + "\n"
        for result in results {
            let name = escape(result.path)
            xml +=
                #"    <testcase classname="scenarios" name="\#(name)" file="\#(name)" time="\#(format(result.seconds))""#
            if result.passed {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            let first = Renderer().lines(of: result.failures[0])[0]
            let more = result.failures.count - 1
            let message = first + (more > 0 ? " (and \(more) more failure\(more == 1 ? "" : "s"))" : "")
            xml += #"      <failure message="\#(escape(message))" type="ScenarioFailure">"#
            xml += escape(result.report.joined(separator: "\n"))
            xml += "</failure>\n"
            xml += "    </testcase>\n"
        }
        for path in notRun {
            let name = escape(path)
            xml += #"    <testcase classname="scenarios" name="\#(name)" file="\#(name)" time="0">"# + "\n"
            xml += #"      <skipped message="not run: --bail stopped at the first failure"/>"# + "\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func format(_ seconds: Double) -> String {
        String(Double(Int((seconds * 1000).rounded())) / 1000)
    }

    /// XML text and attribute escaping; characters XML 1.0 forbids are replaced.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\n", "\t": output.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
                output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
