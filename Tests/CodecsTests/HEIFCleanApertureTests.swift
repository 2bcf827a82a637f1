import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// A HEIF clean aperture (`clap`) crops the coded picture: a 451x461 photo is coded 452x462
/// because x265 codes whole 2x2 blocks. What a viewer shows, and what `info` reports as
/// displayed, is the clean aperture.
@Suite struct HEIFCleanApertureTests {
    /// Adds a centred clap of the given size to the primary item of a HEIF file (argv: source,
    /// target, width, height): appended to ipco, associated in ipma, the boxes grown and iloc's
    /// file offsets moved. Python, so that the bytes are made independently of photocap's reader.
    static let addCleanAperture = #"""
# Adds a clean aperture (clap) of WIDTHxHEIGHT, centred, to the primary item of a HEIF file:
# the property appended to ipco, associated in ipma, box sizes grown and iloc's file offsets
# moved past the inserted bytes.
import struct, sys
source, target, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = bytearray(open(source, "rb").read())

def children(start, end):
    position = start
    while position < end:
        size, kind = struct.unpack(">I4s", data[position:position + 8])
        yield position, size, kind.decode("latin-1")
        position += size

def find(start, end, kind):
    return next(box for box in children(start, end) if box[2] == kind)

meta = find(0, len(data), "meta")
meta_children = (meta[0] + 12, meta[0] + meta[1])
pitm = find(*meta_children, "pitm")
primary = struct.unpack(">H", data[pitm[0] + 12:pitm[0] + 14])[0]
iprp = find(*meta_children, "iprp")
ipco = find(iprp[0] + 8, iprp[0] + iprp[1], "ipco")
ipma = find(iprp[0] + 8, iprp[0] + iprp[1], "ipma")
coded_w, coded_h = None, None
count = 0
for position, size, kind in children(ipco[0] + 8, ipco[0] + ipco[1]):
    count += 1
    if kind == "ispe":
        coded_w, coded_h = struct.unpack(">II", data[position + 12:position + 20])
clap = struct.pack(">I4s8i", 40, b"clap", width, 1, height, 1, width - coded_w, 2, height - coded_h, 2)
index = count + 1

# ipma rewritten with the new association for the primary item.
version, flags = data[ipma[0] + 8], int.from_bytes(data[ipma[0] + 9:ipma[0] + 12], "big")
position = ipma[0] + 12
entries = struct.unpack(">I", data[position:position + 4])[0]
position += 4
body = bytearray(struct.pack(">I", entries))
for _ in range(entries):
    id_size = 2 if version < 1 else 4
    item = int.from_bytes(data[position:position + id_size], "big")
    associations = data[position + id_size]
    size = 2 if flags & 1 else 1
    listed = data[position + id_size + 1:position + id_size + 1 + associations * size]
    position += id_size + 1 + associations * size
    if item == primary:
        listed = listed + ((0x8000 | index).to_bytes(2, "big") if flags & 1 else bytes([0x80 | index]))
        associations += 1
    body += item.to_bytes(id_size, "big") + bytes([associations]) + listed
new_ipma = struct.pack(">I4s", 12 + len(body), b"ipma") + bytes([version]) + flags.to_bytes(3, "big") + body

insert_at = ipco[0] + ipco[1]
delta = len(clap) + len(new_ipma) - ipma[1]
out = data[:insert_at] + clap + data[insert_at:ipma[0]] + new_ipma + data[ipma[0] + ipma[1]:]
def grow(offset, by):
    size = struct.unpack(">I", out[offset:offset + 4])[0]
    out[offset:offset + 4] = struct.pack(">I", size + by)
grow(ipco[0], len(clap))
grow(iprp[0], delta)
grow(meta[0], delta)

# iloc: file offsets (construction method 0) beyond the meta box move by delta.
iloc = find(meta[0] + 12, meta[0] + 12 + (meta[1] - 12) + delta, "iloc")
p = iloc[0] + 8
iloc_version = out[p]; p += 4
offset_size, length_size = out[p] >> 4, out[p] & 15
base_size, index_size = out[p + 1] >> 4, (out[p + 1] & 15 if iloc_version in (1, 2) else 0)
p += 2
item_count = int.from_bytes(out[p:p + (2 if iloc_version < 2 else 4)], "big"); p += 2 if iloc_version < 2 else 4
meta_end = meta[0] + meta[1]
for _ in range(item_count):
    p += 2 if iloc_version < 2 else 4
    method = 0
    if iloc_version in (1, 2):
        method = int.from_bytes(out[p:p + 2], "big") & 15; p += 2
    p += 2  # data reference index
    base = int.from_bytes(out[p:p + base_size], "big") if base_size else 0
    base_at = p; p += base_size
    extents = int.from_bytes(out[p:p + 2], "big"); p += 2
    if method == 0 and base_size and base >= meta_end:
        out[base_at:base_at + base_size] = (base + delta).to_bytes(base_size, "big")
    for _ in range(extents):
        p += index_size
        if method == 0 and offset_size:
            value = int.from_bytes(out[p:p + offset_size], "big")
            if base == 0 and value >= meta_end:
                out[p:p + offset_size] = (value + delta).to_bytes(offset_size, "big")
        p += offset_size + length_size
open(target, "wb").write(out)
"""#

    @Test func theDisplayedSizeIsTheCleanAperture() throws {
        let folder = try TemporaryDirectory("clap")
        let coded = try folder.write(try HEICTests.heic(.up), named: "coded.heic")
        let cropped = folder.path("cropped.heic")
        let width = HEICTests.size.width - 1, height = HEICTests.size.height - 1
        let made = try ExternalTool.run("python3", ["-c", Self.addCleanAperture, coded, cropped, String(width), String(height)])
        #expect(made.status == 0, "\(made.stderr)")
        // libheif, the reference reader, shows the clean aperture.
        let reference = try ExternalTool.run("heif-info", [cropped]).text
        #expect(reference.contains("image: \(width)x\(height)"), "\(reference)")
        let info = try ImageFileInfo(data: Array(try Data(contentsOf: URL(fileURLWithPath: cropped))))
        #expect(info.storedSize == HEICTests.size)
        #expect(info.displayedSize == PixelSize(width: width, height: height))
        #expect(info.orientation == .up)
    }
}
