s/^(GPU time: ).*/\1<time>/
