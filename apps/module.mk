# apps/: (filled in below)
