// Headers only: the functions are glibc's. SwiftPM needs a source file to build the target.
#include "file_attributes.h"
