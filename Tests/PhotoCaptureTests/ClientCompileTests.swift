import Foundation
import Testing
import TestSupport

/// What a client's code compiles to against the built PhotoCapture module: mistakes the API is
/// designed to reject at compile time, and the documentation's complete snippets.
@Suite struct ClientCompileTests {
    /// `.none` never means "no compensation" by accident: on the request it is neither nil nor a
    /// mode, on the output it is no mode, and both diagnostics name the right spelling.
    @Test func noneIsNoCompensationModeAndNoNil() throws {
        let compiler = try ClientCompiler()
        let onTheRequest = try compiler.typecheck("""
            import PhotoCapture
            var settings = PhotoSettings()
            settings.orientationCompensation = .none
            """)
        #expect(!onTheRequest.compiled)
        #expect(onTheRequest.diagnostics.contains(
            "error: 'none' is unavailable: use .mode(.off) for no compensation, or .outputDefault for the output's mode"),
                "\(onTheRequest.diagnostics)")
        let onTheOutput = try compiler.typecheck("""
            import PhotoCapture
            PhotoOutput().orientationCompensation = .none
            """)
        #expect(!onTheOutput.compiled)
        #expect(onTheOutput.diagnostics.contains("error: 'none' has been renamed to 'off'"), "\(onTheOutput.diagnostics)")

        // The spellings the diagnostics name compile (so the checks above can fail).
        let correct = try compiler.typecheck("""
            import PhotoCapture
            var settings = PhotoSettings()
            settings.orientationCompensation = .mode(.off)
            settings.orientationCompensation = .outputDefault
            PhotoOutput().orientationCompensation = .off
            """)
        #expect(correct.compiled, "\(correct.diagnostics)")
    }

    /// A test file that imports only the testing product can name the types its API uses.
    @Test func theTestingProductAloneNamesTheTypesItsAPIUses() throws {
        let verdict = try ClientCompiler().typecheck("""
            import PhotoCaptureTesting
            func check(_ image: RGBImage, _ error: CodecError?) throws -> PixelSize {
                let displayed = try DisplayedImage(fileAt: "photo.jpg")
                _ = displayed
                return PixelSize(width: image.size.width, height: image.size.height)
            }
            """)
        #expect(verdict.compiled, "\(verdict.diagnostics)")
    }

    /// The delegate of Docs.docc/CapturingAPhoto.md that keeps its photo in a `var` and is waited for
    /// compiles in Swift 6 mode, as the article shows it.
    @Test func theArticlesWaitingDelegateCompiles() throws {
        let article = try String(contentsOf: TestPaths.repository.appendingPathComponent("Docs.docc/CapturingAPhoto.md"),
                                 encoding: .utf8)
        let snippet = try #require(Self.firstSwiftBlock(after: "### Wait for a delegate's photo", in: article))
        #expect(snippet.contains("var "), "the snippet keeps the photo in a var")
        let verdict = try ClientCompiler().typecheck(snippet)
        #expect(verdict.compiled, "\(verdict.diagnostics)")
        #expect(!verdict.diagnostics.contains("warning:"), "\(verdict.diagnostics)")
    }

    /// A delegate ported from iOS compiles as it is and its methods are the protocol's; one
    /// that lacks a required callback, or keeps photocap's former types, does not compile, so
    /// the photo or the request's end cannot be missed silently.
    @Test func aDelegateMissingTheRequiredCallbacksDoesNotCompile() throws {
        let compiler = try ClientCompiler()
        let ported = try compiler.typecheck("""
            import PhotoCapture
            final class Processor: PhotoCaptureDelegate {
                func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}
                func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: Error?) {}
                func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {}
            }
            """)
        #expect(ported.compiled, "\(ported.diagnostics)")
        #expect(!ported.diagnostics.contains("warning:"), "\(ported.diagnostics)")
        let withoutEnd = try compiler.typecheck("""
            import PhotoCapture
            final class Processor: PhotoCaptureDelegate {
                func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: Error?) {}
            }
            """)
        #expect(!withoutEnd.compiled)
        #expect(withoutEnd.diagnostics.contains("does not conform to protocol 'PhotoCaptureDelegate'"), "\(withoutEnd.diagnostics)")
        // An overload with other types is not the requirement: the class still does not conform.
        let otherTypes = try compiler.typecheck("""
            import PhotoCapture
            final class Processor: PhotoCaptureDelegate {
                func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto?, error: PhotoCaptureError?) {}
                func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {}
            }
            """)
        #expect(!otherTypes.compiled)
        #expect(otherTypes.diagnostics.contains("does not conform to protocol 'PhotoCaptureDelegate'"), "\(otherTypes.diagnostics)")
    }

    /// The article's delegate, written with AVFoundation's signatures, compiles as a client
    /// writes it, without a warning.
    @Test func theArticlesDelegateCompiles() throws {
        let article = try String(contentsOf: TestPaths.repository.appendingPathComponent("Docs.docc/CapturingAPhoto.md"),
                                 encoding: .utf8)
        let snippet = try #require(Self.firstSwiftBlock(after: "### Capture with a delegate", in: article))
        #expect(snippet.contains("didFinishProcessingPhoto photo: CapturePhoto, error: Error?"), "\(snippet)")
        // The snippet uses the output the article made above it.
        let verdict = try ClientCompiler().typecheck("import PhotoCapture\nlet output = PhotoOutput()\n" + snippet)
        #expect(verdict.compiled, "\(verdict.diagnostics)")
        #expect(!verdict.diagnostics.contains("warning:"), "\(verdict.diagnostics)")
    }

    /// The first ```swift block after the line `heading` in `markdown`.
    static func firstSwiftBlock(after heading: String, in markdown: String) -> String? {
        guard let section = markdown.range(of: "\n\(heading)\n"),
              let start = markdown.range(of: "```swift\n", range: section.upperBound..<markdown.endIndex),
              let end = markdown.range(of: "\n```", range: start.upperBound..<markdown.endIndex) else { return nil }
        return String(markdown[start.upperBound..<end.lowerBound])
    }
}
