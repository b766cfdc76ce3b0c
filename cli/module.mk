# cli/: (filled in below)
