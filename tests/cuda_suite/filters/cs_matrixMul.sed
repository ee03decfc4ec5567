s/^(Performance= ).*(, Size= )/\1<time>\2/
