s/^(Processing time: ).*/\1<time>/
s/^(CUDA device \[).*(\] has )[0-9]+( Multi-Processors)/\1<device>\2<n>\3/
