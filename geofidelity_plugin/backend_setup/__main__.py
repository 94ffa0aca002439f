from .venv_setup import main

raise SystemExit(main())
