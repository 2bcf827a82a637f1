#pragma once
// The one seam to libtiff. It is loaded with dlopen on first use, not linked: linked, it and the
// codecs it brings (libwebp, libzstd, liblzma, libLerc, libjbig, libdeflate) were mapped and
// relocated at every photocap start-up (~0.5 ms), for the runs that read or write TIFF or DNG
// only. Its own header gives each function's type; pc_tiff_load finds them all.
#include <stddef.h>
#include <tiffio.h>
#include <tiffvers.h>

/// The libtiff functions photocap calls, named without their `TIFF` prefix.
#define PC_TIFF_FUNCTIONS(X) \
    X(ClientOpenExt) \
    X(Close) \
    X(CreateEXIFDirectory) \
    X(CreateGPSDirectory) \
    X(CurrentDirOffset) \
    X(FieldSetGetSize) \
    X(FieldWithTag) \
    X(FindField) \
    X(GetStrileByteCount) \
    X(GetStrileOffset) \
    X(IsBigEndian) \
    X(IsTiled) \
    X(NumberOfStrips) \
    X(NumberOfTiles) \
    X(OpenOptionsAlloc) \
    X(OpenOptionsFree) \
    X(OpenOptionsSetErrorHandlerExtR) \
    X(OpenOptionsSetWarningHandlerExtR) \
    X(ReadDirectory) \
    X(ReadEXIFDirectory) \
    X(ReadEncodedStrip) \
    X(ReadGPSDirectory) \
    X(ReadScanline) \
    X(RGBAImageBegin) \
    X(RGBAImageEnd) \
    X(RGBAImageGet) \
    X(RGBAImageOK) \
    X(RewriteDirectory) \
    X(ScanlineSize64) \
    X(SetDirectory) \
    X(SetSubDirectory) \
    X(VGetField) \
    X(VSetField) \
    X(WriteCustomDirectory) \
    X(WriteBufferSetup) \
    X(WriteDirectory) \
    X(WriteEncodedStrip) \
    X(WriteScanline)

#define PC_TIFF_FIELD(name) __typeof__(TIFF##name) *_Nonnull name;

/// libtiff's functions, each typed after the function it holds.
typedef struct {
    PC_TIFF_FUNCTIONS(PC_TIFF_FIELD)
} pc_tiff_functions;

#undef PC_TIFF_FIELD

/// Loads libtiff ("libtiff.so.6") once per process, thread-safe, and returns its functions;
/// NULL when it cannot be loaded, with the reason in `reason`.
const pc_tiff_functions *_Nullable pc_tiff_load(char *_Nullable reason, size_t reason_size);
