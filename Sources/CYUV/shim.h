#pragma once
#include <libyuv.h>
#include <libyuv/scale_rgb.h>
