/* What MSVC's /ZI (Edit and Continue) makes of the line-number macro inside
   a function: a variable plus an offset, not a constant. tools/msvc_check.sh
   defines the macro as this variable to compile the headers' users so. */
static long corral__zi_line;
