#pragma once
// The one seam to LibRaw (its thread-safe build, libraw_r). It is loaded with dlopen on first
// use, not linked: linked, it and what it needs (libgomp, liblcms2) were mapped and relocated at
// every photocap start-up, for the runs that read or develop RAW data only.
//
// Swift sees none of LibRaw's structures: their fixed arrays (a 65,536-entry tone curve among
// them) come into Swift as tuples, whose debug information made each file that named one slow to
// build (see the Performance article). The processor is opaque; what photocap reads of it comes
// out in pc_raw_info, and the development it asks for is set here.
#include <stddef.h>
#include <stdint.h>

/// LibRaw's processor (`libraw_data_t`).
typedef struct pc_raw pc_raw;

/// The seam's LibRaw, once loaded (opaque).
typedef struct pc_raw_library pc_raw_library;

/// Loads LibRaw (libraw_r.so.N, N from the header built against: 20 on Debian 12) once per process,
/// thread-safe; NULL when it cannot be loaded, with the reason in `reason`. Every other function
/// here may be called only once it has returned non-NULL.
const pc_raw_library *_Nullable pc_raw_load(char *_Nullable reason, size_t reason_size);

/// LibRaw's success code, `LIBRAW_SUCCESS`.
extern const int pc_raw_success;

/// A new processor whose data errors are not printed (the caller reports them); NULL when out
/// of memory.
pc_raw *_Nullable pc_raw_init(void);
void pc_raw_close(pc_raw *_Nonnull raw);
/// LibRaw's text for an error code, or NULL.
const char *_Nullable pc_raw_strerror(int code);

/// Reads the headers of the file in `buffer`, which LibRaw reads in place until
/// pc_raw_recycle_datastream.
int pc_raw_open_buffer(pc_raw *_Nonnull raw, const void *_Nonnull buffer, size_t size);
/// Reads the headers of the file at `path`, which LibRaw keeps open and reads a buffer at a
/// time (never whole) until pc_raw_recycle_datastream.
int pc_raw_open_file(pc_raw *_Nonnull raw, const char *_Nonnull path);
/// Decodes the sensor data.
int pc_raw_unpack(pc_raw *_Nonnull raw);
/// Lets go of the file given to pc_raw_open_buffer or pc_raw_open_file.
void pc_raw_recycle_datastream(pc_raw *_Nonnull raw);

/// What photocap reads of an opened file.
typedef struct {
    /// The whole sensor area decoded, and the visible image inside it.
    int raw_width, raw_height, width, height;
    /// Bytes from one row of `raw_image` to the next.
    int raw_pitch;
    /// LibRaw's flip code for the file's Orientation.
    int flip;
    /// Non-zero for a DNG.
    unsigned dng_version;
    /// The colour names, indexed by pc_raw_color ("RGBG").
    char colors[4];
    /// The white and black levels.
    unsigned maximum, black;
    /// The white balance multipliers as shot: red, green, blue, green.
    float camera_multipliers[4];
    /// The single-channel CFA values after pc_raw_unpack; NULL for other data.
    const uint16_t *_Nullable raw_image;
    /// Where the visible image starts in `raw_image`.
    int top_margin, left_margin;
    /// The camera's colours (indexed as `colors`) to linear sRGB, row by row (LibRaw's rgb_cam).
    float camera_to_srgb[3][4];
} pc_raw_info;

void pc_raw_read_info(const pc_raw *_Nonnull raw, pc_raw_info *_Nonnull info);

/// What pc_raw_process does to each site of the 2×2 filter tile at the image's top-left, row
/// by row, as LibRaw's scale_colors does it: `black` is subtracted (the common black level, the
/// colour's and the file's black pattern) and the rest multiplied by `multiplier` (the white
/// balance as shot, else the daylight one) over `white` (the white level above the common
/// black). Returns 0 when the tile cannot say it: a black pattern that does not repeat every
/// two rows and columns, or no multiplier.
int pc_raw_site_levels(pc_raw *_Nonnull raw, unsigned black[_Nonnull 4], float multiplier[_Nonnull 4], unsigned *_Nonnull white);
/// The colour index of the filter at (`row`, `column`) of the image.
int pc_raw_color(pc_raw *_Nonnull raw, int row, int column);

/// Develops the unpacked data into 8-bit sRGB as RAWDeveloper describes: AHD demosaic, white
/// balance as shot, the camera's matrix, the sRGB curve, the file's own white level.
/// `half_size`: one pixel per 2×2 tile, no demosaic; `apply_flip`: turn as the file says.
int pc_raw_process(pc_raw *_Nonnull raw, int half_size, int apply_flip);

/// The developed picture, 8 bits per sample.
typedef struct {
    int width, height, colors, bits;
    /// Non-zero when LibRaw made a bitmap (not a JPEG thumbnail).
    int is_bitmap;
    const uint8_t *_Nullable data;
    /// LibRaw's image, for pc_raw_clear_bitmap.
    void *_Nullable image;
} pc_raw_bitmap;

/// The picture pc_raw_process made; free it with pc_raw_clear_bitmap.
int pc_raw_make_bitmap(pc_raw *_Nonnull raw, pc_raw_bitmap *_Nonnull bitmap);
void pc_raw_clear_bitmap(pc_raw_bitmap *_Nonnull bitmap);
/// Frees the 16-bit four-channel image pc_raw_process worked in (8 bytes a pixel).
void pc_raw_free_image(pc_raw *_Nonnull raw);
