#pragma once
// The shim's own module, for a program that links it rather than loading it (clibcamera-probe):
// the functions are those of CLibcamera's libcamera_shim.h, implemented here over libcamera.
#include "../../CLibcamera/include/libcamera_shim.h"
