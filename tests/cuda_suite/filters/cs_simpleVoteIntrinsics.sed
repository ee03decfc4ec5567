s/^(> GPU device has )[0-9]+( Multi-Processors)/\1<n>\2/
