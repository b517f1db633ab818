"""Finding and reaching other peers: addresses, LAN discovery, router port mappings, reachability checks."""
