import CXML
#if canImport(Glibc)
import Glibc
#endif

/// The container directory of Google's image formats — Ultra HDR (its gain map), Motion Photo,
/// Android's depth photos: the primary image's XMP lists, in `Container:Directory`, each image
/// of the file in order, and for those after the primary one their byte length
/// (`Item:Length`), by which readers find them. A turn that re-encodes them must say their new
/// lengths. Edited with libxml2, by the document's structure.
package enum XMPContainerDirectory {
    package static let containerNamespace = "http://ns.google.com/photos/1.0/container/"
    package static let itemNamespace = "http://ns.google.com/photos/1.0/container/item/"

    /// `packet` (a standard XMP packet's bytes) with the lengths of the items after the primary
    /// one set to `lengths`, in order; nil when it lists no such item with a length (or is not
    /// well-formed, or libxml2 cannot be loaded): then nothing needs to change.
    package static func settingLengths(_ lengths: [Int], in packet: ArraySlice<UInt8>) -> [UInt8]? {
        var edited: UnsafeMutablePointer<CChar>?
        var editedSize: Int32 = 0
        var items: Int32 = 0
        defer { free(edited) }
        let values = lengths.map { CLong($0) }
        let status = Array(packet).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                pc_xml_set_container_item_lengths(text.baseAddress, Int32(text.count), containerNamespace, itemNamespace,
                                                  values, Int32(values.count), &edited, &editedSize, &items)
            }
        }
        guard status == 1, let edited else { return nil }
        return Array(UnsafeRawBufferPointer(start: edited, count: Int(editedSize)))
    }
}
