from paperrank.report.cli import main

raise SystemExit(main())
