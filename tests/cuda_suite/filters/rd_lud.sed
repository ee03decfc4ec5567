s/^(Time consumed\(ms\): ).*/\1<time>/
