"""asyncio networking: framing, the peer mesh, zeroconf discovery, persistence."""
