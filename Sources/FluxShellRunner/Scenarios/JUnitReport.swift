/// A JUnit XML report of a scenario run: one test case per scenario, with its failures.
package enum JUnitReport {
    public static func xml(for results: [ScenarioRunner.Result], seconds: Double) -> String {
        let failed = results.filter { !$0.passed }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="fluxsh test" tests="\#(results.count)" failures="\#(failed)" time="\#(format(seconds))">"#
            + "\n"
        xml +=
            #"  <testsuite name="scenarios" tests="\#(results.count)" failures="\#(failed)" errors="0" skipped="0" time="\#(format(seconds))">"#
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
            for failure in result.failures {
                let lines = Renderer().lines(of: failure)
                xml += #"      <failure message="\#(escape(lines[0]))" type="ScenarioFailure">"#
                xml += escape(lines.joined(separator: "\n"))
                xml += "</failure>\n"
            }
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
