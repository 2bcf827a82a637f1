import Foundation
import Testing
import TestSupport

/// `photocap --generate-completion-script`: bash parses the script, and its
/// completion function, run as bash runs it, completes the options of a subcommand.
@Suite struct CompletionScriptTests {
    @Test func bashCompletesShootOptions() throws {
        let folder = try TemporaryDirectory("completion")
        let run = try ShootCommandTests.photocap(["--generate-completion-script", "bash"])
        #expect(run.status == 0, "\(run.stderr)")
        let script = try folder.write(Array(run.stdout), named: "photocap.bash")
        #expect(try ExternalTool.run("bash", ["-n", script]).status == 0)
        for (word, expected) in [("--loc", "--location"), ("--cont", "--control"), ("--copy", "--copyright")] {
            let line = "photocap shoot \(word)"
            let completed = try ExternalTool.run("bash", ["-c", """
                source "$1"; COMP_WORDS=(photocap shoot \(word)); COMP_CWORD=2; COMP_LINE='\(line)'; COMP_POINT=\(line.count)
                _photocap photocap \(word) shoot; echo "${COMPREPLY[@]}"
                """, "bash", script]).checked()
            #expect(completed.text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == [expected],
                    "\(word): \(completed.text)")
        }
    }
}
