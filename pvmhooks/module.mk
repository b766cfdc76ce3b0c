# pvmhooks/: (filled in below)
