#pragma once
#include <stddef.h>
#include <stdint.h>

/// Expands limited-range (16...235) luma to full range (0...255) in place.
void pc_expand_luma_range(uint8_t *row, size_t count);

/// Expands limited-range (16...240) chroma to full range (0...255) in place.
void pc_expand_chroma_range(uint8_t *row, size_t count);

/// pc_expand_luma_range on `rows` rows of `width` samples, `stride` bytes apart.
void pc_expand_luma_rows(uint8_t *first, ptrdiff_t stride, size_t width, size_t rows);

/// pc_expand_chroma_range on `rows` rows of `width` samples, `stride` bytes apart.
void pc_expand_chroma_rows(uint8_t *first, ptrdiff_t stride, size_t width, size_t rows);

/// `height` rows of YUYV (`uyvy` 0) or UYVY (`uyvy` 1), `src_stride` bytes apart (negative to
/// read upward), to limited-range I420 and on to full range in one pass: exactly libyuv's
/// YUY2ToI420 or UYVYToI420 followed by pc_expand_luma_range and pc_expand_chroma_range. Only
/// the AVX2 form exists (elsewhere those two steps are the way), for an even `width`: returns 1
/// when done, 0 (nothing written) otherwise.
int pc_packed_to_i420_expanded(const uint8_t *src, ptrdiff_t src_stride, uint8_t *y, ptrdiff_t y_stride, uint8_t *u,
                               uint8_t *v, ptrdiff_t chroma_stride, int width, int height, int uyvy);

/// Which form the row kernels above and pc_accumulate_rows take.
typedef enum {
    /// AVX2 where the processor has it and the library was built optimised; SSE2 otherwise.
    PC_KERNELS_AUTOMATIC = 0,
    /// The baseline form (SSE2 on x86-64), which tests compare the AVX2 one with.
    PC_KERNELS_BASELINE = 1,
    /// The AVX2 form, also in an unoptimised build (where it is slow): for tests.
    PC_KERNELS_AVX2 = 2,
} pc_kernel_form;

/// Chooses the form for the whole process; returns 0 (and changes nothing) for
/// PC_KERNELS_AVX2 on a processor without AVX2.
int pc_kernels_set_form(pc_kernel_form form);

/// Whether the row kernels take their AVX2 form now.
int pc_kernels_use_avx2(void);

/// Mean absolute difference between two byte buffers (0 when count is 0).
double pc_mean_absolute_difference(const uint8_t *a, const uint8_t *b, size_t count);

/// Sum and sum of squares of the absolute differences between two byte buffers, and the
/// largest one (all 0 when count is 0).
void pc_difference_statistics(const uint8_t *a, const uint8_t *b, size_t count,
                              uint64_t *absolute_sum, uint64_t *squared_sum, uint8_t *maximum);

/// A picture of where two packed RGB images (`pixels` pixels each) differ: pixels that agree
/// are a dim grey copy of `a`, pixels that differ are red, brighter the larger the largest
/// channel difference (64 + 4·d, capped at 255).
void pc_difference_image(const uint8_t *a, const uint8_t *b, size_t pixels, uint8_t *out);

/// Bilinear demosaic of one row of a Bayer frame into packed R, G, B bytes.
///
/// `pattern` is the 2×2 tile read row by row, as colour indices (0 red, 1 green, 2 blue), e.g.
/// {0, 1, 1, 2} for RGGB. Samples are 8-bit (`bytes_per_sample` 1) or little-endian 16-bit
/// words (2) whose low `bits` carry the value (V4L2 layout), scaled to 8 bits. Columns `x ..< x + count` of
/// row `row` are produced; neighbours outside the frame are mirrored so the tile phase holds.
void pc_demosaic_row(const uint8_t *frame, size_t stride, int width, int height, int bytes_per_sample,
                     int bits, const uint8_t pattern[4], int row, int x, int count, uint8_t *rgb);

/// How a RAW file's sensor values become 8-bit sRGB in photocap's own development, done a row
/// at a time (for pictures too large to develop whole): per site of the 2×2 tile, row by row,
/// the black level subtracted and the scale that brings white balance and white level to
/// 0...65535; then the camera's colours to linear sRGB (`matrix`, row by row) and `curve`, the
/// tone curve's 65,536 entries.
typedef struct {
    int32_t black[4];
    float scale[4];
    float matrix[9];
    const uint8_t *curve;
} pc_development;

/// Develops columns `x ..< x + count` of row `row` of a 16-bit CFA image (`stride` samples
/// from row to row; `pattern` as for pc_demosaic_row) into packed R, G, B bytes: each site
/// scaled as `development` says, demosaiced by Malvar–He–Cutler's 5×5 filters, neighbours
/// outside the image mirrored so the tile phase holds (`width` and `height` at least 2).
void pc_develop_row(const uint16_t *cfa, size_t stride, int width, int height, const uint8_t pattern[4],
                    const pc_development *development, int row, int x, int count, uint8_t *rgb);

/// Bins a Bayer mosaic of `width`×`height` (both even) by `factor`: each 2×2 tile of the result
/// is the rounded mean of the same sites of a `factor`×`factor` block of source tiles (blocks at
/// the right and bottom edges take the tiles there are), so the result keeps the colour
/// pattern, the sample size (1 byte, or a little-endian 16-bit word) and the value range.
/// The result is 2·⌈width/2/factor⌉ × 2·⌈height/2/factor⌉ samples, rows `dst_stride` bytes apart.
void pc_bin_bayer(const uint8_t *src, size_t src_stride, int width, int height, int bytes_per_sample,
                  int factor, uint8_t *dst, size_t dst_stride);

/// Lays packed R, G, B bytes (`width`×`height`, rows without padding) out as a Bayer mosaic:
/// each site keeps the channel its filter passes (`pattern` as for pc_demosaic_row), mapped
/// through that channel's 256-entry table in `curves` (red, green, blue tables one after the
/// other), and stored as a byte or a little-endian 16-bit word.
void pc_mosaic_bayer(const uint8_t *rgb, int width, int height, const uint8_t pattern[4], const uint16_t *curves,
                     int bytes_per_sample, uint8_t *dst, size_t dst_stride);

/// Unpacks one row of `width` MIPI CSI-2 packed Bayer samples of `bits` (10: each 5-byte group
/// holds the high 8 bits of 4 samples, then their low 2 bits, first sample lowest; 12: each 3-byte
/// group holds the high 8 bits of 2 samples, then their low 4 bits) into little-endian 16-bit
/// words, the value in the low `bits`, as V4L2's unpacked formats (RG10, RG12...) hold them.
void pc_unpack_csi2_row(const uint8_t *src, int width, int bits, uint8_t *dst);

/// The inverse of pc_unpack_csi2_row: `width` little-endian 16-bit words (values below
/// 2^bits) packed into CSI-2 groups; a partial last group is padded with zero samples.
void pc_pack_csi2_row(const uint8_t *src, int width, int bits, uint8_t *dst);

/// Turns a `width`×`height` plane (rows `src_stride` bytes apart) by a quarter turn into `dst`,
/// which is `height`×`width` (rows `dst_stride` bytes apart): `quarter_turns` 1 is 90°
/// clockwise, 3 is 270° clockwise (libyuv's kRotate90 and kRotate270); other values do nothing.
/// Only the `height`×`width` bytes of `dst` are written; the planes must not overlap.
/// `streaming` nonzero lets whole aligned output lines bypass the cache (a plane written for
/// later); zero keeps them in cache, for a reader that comes right after.
void pc_rotate_plane(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride, int width,
                     int height, int quarter_turns, int streaming);

/// Asks for the cache lines of `rows` rows of `bytes` bytes each, from `first` and `stride`
/// bytes apart (negative for rows going up), ahead of reading them — or, `for_writing`
/// nonzero, of writing them: a hint, nothing is read or written.
void pc_prefetch_rows(const uint8_t *first, ptrdiff_t stride, int rows, size_t bytes, int for_writing);

/// Adds `rows` rows of `count` bytes, `stride` apart from `first_row`, to 16-bit column sums,
/// which start from zero when `first` is non-zero. The caller keeps the sums below 65,536.
void pc_accumulate_rows(uint16_t *sums, const uint8_t *first_row, ptrdiff_t stride, size_t count, size_t rows, int first);

/// Adds `count` 16-bit column sums to `sums` (which stay below 65,536).
void pc_add_column_sums(uint16_t *sums, const uint16_t *other, size_t count);

/// One row of a box reduction: output pixel `i` is the rounded mean of the column sums
/// `sums[column_starts[i] ..< column_starts[i + 1]]`, each the sum of `rows` samples.
void pc_box_reduce_row(const uint16_t *sums, const int32_t *column_starts, int out_width, uint32_t rows, uint8_t *out);

/// Moves the calling thread to the `index`-th (modulo their number) of the processors it may
/// run on, then lets it run on all of them again; returns the processor it was moved to, or -1
/// (nothing changed) when it may run on one processor only or the call fails.
int pc_thread_move(int index);

/// Pictures too large to hold twice are turned a band of rows at a time. A band is `rows`
/// stored rows of `width` packed RGB pixels, stored row `first_row` first; an orientation sends
/// the stored pixel (x, y) to linear index `origin + x · dx + y · dy` of `image` (the turned
/// picture). pc_place_band writes the band's pixels there; pc_gather_band reads the pixels
/// there into a band. Both walk `image` along its rows, whichever way the turn runs.
void pc_place_band(uint8_t *image, long origin, long dx, long dy, long first_row, long rows, long width,
                   const uint8_t *band);
void pc_gather_band(const uint8_t *image, long origin, long dx, long dy, long first_row, long rows, long width,
                    uint8_t *band);

/// Halves a `width`×`height` plane: each output sample the rounded mean of a 2×2 block
/// (⌊width/2⌋×⌊height/2⌋ samples; an odd last column or row is dropped).
void pc_downsample_half(const uint8_t *src, ptrdiff_t src_stride, int width, int height, uint8_t *dst,
                        ptrdiff_t dst_stride);

/// The sum of |reference(x, y) − other(x + dx, y + dy)| over columns x0..<x1 and every
/// `row_step`-th row of y0..<y1; the caller keeps the translated rectangle inside `other`.
uint64_t pc_sum_absolute_differences(const uint8_t *reference, ptrdiff_t reference_stride, const uint8_t *other,
                                     ptrdiff_t other_stride, int x0, int y0, int x1, int y1, int dx, int dy,
                                     int row_step);

/// Adds to `histogram` the magnitudes (capped at 1023) of Immerkær's noise mask (a 3×3
/// high-pass that is 0 on flat and linear areas and 6σ on noise of σ) at every `step`-th
/// sample of every `step`-th row of the plane's interior.
void pc_highpass_histogram(const uint8_t *plane, ptrdiff_t stride, int width, int height, int step,
                           uint32_t histogram[1024]);

/// One plane of a merge (pc_merge_tile_rows): the reference, `count` neighbours with their
/// translations in half samples of this plane (the neighbour's sample (x + dx/2, y + dy/2)
/// shows the reference's (x, y)), and the output, all `width`×`height`.
typedef struct {
    const uint8_t *reference;
    ptrdiff_t reference_stride;
    const uint8_t *const *neighbours;
    const ptrdiff_t *neighbour_strides;
    const int *half_dx;
    const int *half_dy;
    int width, height;
    /// Rows of luma tiles (8×8 luma, 4×4 chroma) of the whole picture.
    int tiles_y;
    uint8_t *out;
    ptrdiff_t out_stride;
} pc_merge_plane;

/// The weight (0...256) of each neighbour in each luma tile (8×8) of the tile rows
/// first_tile_row..<first_tile_row + tile_rows, written to `weights` at [neighbour][tile row]
/// [tile column] (⌈width/8⌉ columns): 256 while the tile's mean squared difference to the
/// reference is at most the 2σ² of noise (`noise_variance` σ²), falling linearly to 0 at an
/// excess of `rejection`·σ², and 0 where the translated tile leaves the picture.
void pc_merge_tile_weights(const pc_merge_plane planes[3], int count, float noise_variance, float rejection,
                           int first_tile_row, int tile_rows, uint16_t *weights);

/// Merges the luma tile rows first_tile_row..<first_tile_row + tile_rows (and the chroma rows
/// under them, 4×4 tiles) of Y, Cb and Cr: each output sample the mean of the reference's
/// (weight 256) and the neighbours' samples, weighted by their tile's `weights` (as
/// pc_merge_tile_weights writes them). `sums` holds one luma row (width entries).
void pc_merge_tile_rows(const pc_merge_plane planes[3], int count, int first_tile_row, int tile_rows,
                        const uint16_t *weights, uint32_t *sums);
