/// Settings that `shoot` refuses, with the sentence `photocap shoot` prints for them.
package struct SettingsRefusal: Error, Sendable, CustomStringConvertible {
    /// The sentence, as the command line prints it after `Error: `.
    package let message: String

    /// A refusal saying `message`.
    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
