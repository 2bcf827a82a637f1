/// One reference of a HEIF file's `iref` box (ISO/IEC 23008-12): its type (`dimg`, `auxl`,
/// `cdsc`, `thmb`…), from one item to others, and the box it is read from.
struct HEIFItemReference {
    let type: String
    let from: Int
    let to: [Int]
    let box: HEIFBoxReader.Box

    /// Every reference of `iref`, in order.
    static func all(in iref: HEIFBoxReader.Box, of file: HEIFBoxReader) throws(CodecError) -> [HEIFItemReference] {
        let idSize = try file.integer(at: iref.payload.lowerBound, size: 1, within: iref.payload) == 0 ? 2 : 4
        var result: [HEIFItemReference] = []
        for reference in try file.children(ofFullBox: iref) {
            let start = reference.payload.lowerBound
            let from = try file.integer(at: start, size: idSize, within: reference.payload)
            let count = try file.integer(at: start + idSize, size: 2, within: reference.payload)
            var to: [Int] = []
            for slot in 0..<count {
                to.append(try file.integer(at: start + idSize + 2 + slot * idSize, size: idSize, within: reference.payload))
            }
            result.append(HEIFItemReference(type: reference.type, from: from, to: to, box: reference))
        }
        return result
    }

    /// Throws when an item of `data` is derived from itself through `dimg` references: libheif
    /// 1.15 follows them without end (a fuzzed grid listing itself as a tile aborted the process
    /// when it ran out of threads, or overflowed the stack when decoding on one). A file whose
    /// references cannot be read is left to libheif's own checks.
    static func refuseDerivationCycles(in data: [UInt8]) throws(CodecError) {
        guard let references = try? all(in: data) else { return }
        var inputs: [Int: [Int]] = [:]
        for reference in references where reference.type == "dimg" { inputs[reference.from, default: []] += reference.to }
        // Depth-first with a stack of its own (a file can chain more items than the thread's stack
        // has frames), colouring items: 1 on the current path, 2 done.
        var state: [Int: Int] = [:]
        for root in inputs.keys.sorted() where state[root] == nil {
            state[root] = 1
            var path: [(item: Int, next: Int)] = [(root, 0)]
            while let (item, next) = path.last {
                let list = inputs[item] ?? []
                guard next < list.count else {
                    state[item] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                switch state[list[next]] {
                case 1:
                    throw .corruptFile(format: "HEIF", reason: "item \(list[next]) is derived from itself (its dimg references form a cycle)")
                case nil:
                    state[list[next]] = 1
                    path.append((list[next], 0))
                default:
                    break
                }
            }
        }
    }

    /// Every reference of `data`'s `iref`; none when it has no `iref`.
    static func all(in data: [UInt8]) throws(CodecError) -> [HEIFItemReference] {
        let file = HEIFBoxReader(bytes: data, range: data.indices)
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }) else {
            throw .corruptFile(format: "HEIF", reason: "no top-level meta box")
        }
        guard let iref = try file.children(ofFullBox: meta).first(where: { $0.type == "iref" }) else { return [] }
        return try all(in: iref, of: file)
    }
}
