s/^(Processing time: ).*/\1<time>/
