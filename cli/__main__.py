from cli.entry import main

raise SystemExit(main())
