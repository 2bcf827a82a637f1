#!/usr/bin/env bash
# Prints, a line each, what a VM's guest script runs many times and so keeps in memory
# (vivid-vm.sh --in-memory): the programs named and the shared libraries they load from outside
# the C library's core; with --exiftool, Perl's modules and ExifTool's too (every exiftool start
# reads them).
# Usage: in-memory-paths.sh [--exiftool] PROGRAM_OR_LIBRARY...
set -euo pipefail
exiftool=0
[[ ${1:-} == --exiftool ]] && { exiftool=1; shift; }
for program in "$@"; do
    realpath "$program"
    ldd "$program" | awk '$3 ~ /^\// { print $3 }'
done | xargs -r realpath | grep -vE '/(libc|libm|libpthread|libdl|ld-linux-x86-64)\.so' | sort -u
if ((exiftool)); then
    perl -MConfig -e 'print "$Config{privlibexp}\n$Config{archlibexp}\n"' | xargs realpath
    dirname "$(perl -MImage::ExifTool -e 'print $INC{"Image/ExifTool.pm"}')"
fi
