#include "CImagingKernels.h"

// Mirrors a coordinate into 0 ..< limit about its first and last sample, which keeps the
// Bayer tile's phase (-1 → 1, limit → limit - 2); `limit` is at least 2.
static inline int mirror(int i, int limit) {
    while (i < 0 || i >= limit) i = i < 0 ? -i : 2 * limit - 2 - i;
    return i;
}

static inline int clamp_linear(float v) { return v <= 0 ? 0 : (v >= 65535.0f ? 65535 : (int)(v + 0.5f)); }

void pc_develop_row(const uint16_t *cfa, size_t stride, int width, int height, const uint8_t pattern[4],
                    const pc_development *development, int row, int x, int count, uint8_t *rgb) {
    // Rows row-2 ... row+2 and, per column, its offset: every tap of the 5×5 window.
    const uint16_t *rows[5];
    for (int r = 0; r < 5; r++) rows[r] = cfa + (size_t)mirror(row + r - 2, height) * stride;
    const int phase = (row & 1) * 2;
    // The black level and scale of every site of rows of this row's parity (0) and the other (1).
    int32_t black[2][2];
    float scale[2][2];
    for (int p = 0; p < 2; p++) {
        const int tile = ((row + p) & 1) * 2;
        for (int q = 0; q < 2; q++) {
            black[p][q] = development->black[tile + q];
            scale[p][q] = development->scale[tile + q];
        }
    }
    const float *m = development->matrix;
#define S(dr, dc)                                                                                 \
    clamp_linear((float)((int32_t)rows[2 + (dr)][mirror(c + (dc), width)] - black[(dr) & 1][(c + (dc)) & 1]) * \
                 scale[(dr) & 1][(c + (dc)) & 1])
    for (int i = 0; i < count; i++) {
        const int c = x + i;
        const int here = pattern[phase + (c & 1)];
        const int centre = S(0, 0);
        const int n = S(-1, 0), s = S(1, 0), w = S(0, -1), e = S(0, 1);
        const int nn = S(-2, 0), ss = S(2, 0), ww = S(0, -2), ee = S(0, 2);
        const int diagonal = S(-1, -1) + S(-1, 1) + S(1, -1) + S(1, 1);
        int value[3];
        value[here] = centre;
        // Malvar, He and Cutler's gradient-corrected bilinear interpolation ("High-quality
        // linear interpolation for demosaicing of Bayer-patterned color images", 2004), in
        // sixteenths so that its half weights stay integers.
        if (here == 1) {
            const int beside = pattern[phase + ((c + 1) & 1)], above = 2 - beside;
            value[beside] = (10 * centre + 8 * (w + e) - 2 * (ww + ee) - 2 * diagonal + (nn + ss)) / 16;
            value[above] = (10 * centre + 8 * (n + s) - 2 * (nn + ss) - 2 * diagonal + (ww + ee)) / 16;
        } else {
            value[1] = (8 * centre + 4 * (n + s + w + e) - 2 * (nn + ss + ww + ee)) / 16;
            value[2 - here] = (12 * centre + 4 * diagonal - 3 * (nn + ss + ww + ee)) / 16;
        }
        float r = (float)(value[0] < 0 ? 0 : value[0] > 65535 ? 65535 : value[0]);
        float g = (float)(value[1] < 0 ? 0 : value[1] > 65535 ? 65535 : value[1]);
        float b = (float)(value[2] < 0 ? 0 : value[2] > 65535 ? 65535 : value[2]);
        uint8_t *out = rgb + 3 * i;
        out[0] = development->curve[clamp_linear(m[0] * r + m[1] * g + m[2] * b)];
        out[1] = development->curve[clamp_linear(m[3] * r + m[4] * g + m[5] * b)];
        out[2] = development->curve[clamp_linear(m[6] * r + m[7] * g + m[8] * b)];
    }
#undef S
}
