"""``python -m p2p``: one seat's peer as its own process (see :mod:`p2p.run`)."""

from p2p.run import main

raise SystemExit(main())
