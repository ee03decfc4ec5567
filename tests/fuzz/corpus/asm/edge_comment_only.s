// nothing here
# nor here
