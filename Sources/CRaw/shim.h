#pragma once
#include <libraw/libraw.h>
