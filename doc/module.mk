# doc/: (filled in below)
