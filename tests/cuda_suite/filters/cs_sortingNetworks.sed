s/^(Average time: ).*/\1<time>/
s/^(sortingNetworks-bitonic, Throughput = ).*(, Size = )/\1<time>\2/
