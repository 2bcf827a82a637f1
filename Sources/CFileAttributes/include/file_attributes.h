#ifndef PHOTOCAP_FILE_ATTRIBUTES_H
#define PHOTOCAP_FILE_ATTRIBUTES_H

// Extended attributes (xattr(7)), which Swift's Glibc module does not import: the calls that
// keep a rewritten file's attributes and POSIX ACL.
#include <sys/xattr.h>

#endif
