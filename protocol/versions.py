"""Protocol versions: the one this program writes, and those whose files it reads and verifies
(a lobby accepts only its own)."""

from typing import Final

PROTOCOL_VERSION: Final = 3
READABLE_VERSIONS: Final = (1, 2, 3)
