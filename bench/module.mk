# bench/: (filled in below)
