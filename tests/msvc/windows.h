/* Stand-in for <windows.h> in tools/msvc_check.sh (see intrin.h here): the
   part src/port.h uses, declared as the Windows SDK declares it. */
#pragma once
typedef union _LARGE_INTEGER {
    struct {
        unsigned long LowPart;
        long HighPart;
    } u;
    long long QuadPart;
} LARGE_INTEGER;
int __stdcall QueryPerformanceCounter(LARGE_INTEGER *count);
int __stdcall QueryPerformanceFrequency(LARGE_INTEGER *freq);
