/// What each command holds in memory per pixel of the largest picture it decodes, stated in
/// one place: with the default `--max-pixels`, a picture whose decode times this does not fit
/// in the memory the process may use is refused from its header (``PixelBudgetOptions``).
package enum DecodeFootprint: Int {
    /// The picture as 8-bit RGB (3); the golden decoded whole (3) when it is not a PNG or JPEG
    /// read by rows, and a TIFF's stored picture while its turned copy is made (3). Judged from
    /// the header, before the golden's kind is known: the most it may take.
    case compare = 9
    /// The decoded picture and its turned copy (3 + 3).
    case orient = 6
    /// LibRaw's sensor data (2), its 16-bit four-channel image (8) and the 8-bit bitmap made
    /// from it (3), at once; then the developed picture, its upright copy and the encoder's:
    /// x265's lookahead makes a HEIC the larger (measured, `MemoryLimitTests`).
    case develop = 18
    /// A frame, its upright copy (3 + 3) and the encoder's planes (2).
    case capture = 8
}
