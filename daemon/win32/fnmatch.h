// fnmatch(3) for the Windows build, whose C library has none: glob_files.cc
// uses it as on POSIX. Implemented in platform_windows.cc; this directory is
// on the include path of the Windows build only.
#ifndef TUIDRIVER_WIN32_FNMATCH_H_
#define TUIDRIVER_WIN32_FNMATCH_H_

#define FNM_NOMATCH 1
#define FNM_PERIOD 4

int fnmatch(const char* pattern, const char* name, int flags);

#endif  // TUIDRIVER_WIN32_FNMATCH_H_
