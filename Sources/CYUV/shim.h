#pragma once
#include <libyuv.h>
