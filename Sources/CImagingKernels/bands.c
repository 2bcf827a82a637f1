// Turning pictures too large to copy whole (a 16384x16384 RGB picture is 805 MB) a band of rows
// at a time. A turn that transposes sends a stored row to a column of the turned picture;
// walking the band column by column keeps the accesses to the turned picture along its rows.
#include <string.h>

#include "CImagingKernels.h"

static inline void move_band(uint8_t *image, long origin, long dx, long dy, long first_row, long rows, long width,
                             uint8_t *band, int placing) {
    const int along_rows = dx == 1 || dx == -1;
    for (long outer = 0; outer < (along_rows ? rows : width); outer++) {
        for (long inner = 0; inner < (along_rows ? width : rows); inner++) {
            const long x = along_rows ? inner : outer, r = along_rows ? outer : inner;
            uint8_t *pixel = image + (origin + x * dx + (first_row + r) * dy) * 3;
            uint8_t *stored = band + (r * width + x) * 3;
            if (placing) {
                memcpy(pixel, stored, 3);
            } else {
                memcpy(stored, pixel, 3);
            }
        }
    }
}

void pc_place_band(uint8_t *image, long origin, long dx, long dy, long first_row, long rows, long width,
                   const uint8_t *band) {
    move_band(image, origin, dx, dy, first_row, rows, width, (uint8_t *)band, 1);
}

void pc_gather_band(const uint8_t *image, long origin, long dx, long dy, long first_row, long rows, long width,
                    uint8_t *band) {
    move_band((uint8_t *)image, origin, dx, dy, first_row, rows, width, band, 0);
}
