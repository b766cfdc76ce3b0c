# monitor/: (filled in below)
