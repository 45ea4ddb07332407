/* Stand-in for MSVC's <intrin.h> in tools/msvc_check.sh, which runs Clang as
   MSVC (--target=x86_64-pc-windows-msvc, __clang__ undefined) where the
   real header is not available: the intrinsics src/port.h uses, declared
   as MSVC declares them. */
#pragma once
long _InterlockedExchangeAdd(long volatile *addend, long value);
long _InterlockedOr(long volatile *value, long mask);
void *_InterlockedCompareExchangePointer(void *volatile *dest, void *exchange, void *comparand);
