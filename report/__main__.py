from report.cli import main

raise SystemExit(main())
