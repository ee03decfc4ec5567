s/^(CUDA device \[).*(\] has )[0-9]+( Multi-Processors)/\1<device>\2<n>\3/
s/^(histogram(64|256)\(\) time \(average\) : ).*/\1<time>/
s/^(histogram(64|256), Throughput = ).*(, Size = )/\1<time>\3/
