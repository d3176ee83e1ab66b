"""The command line: one module per command group.

``entry`` parses arguments and dispatches; ``commands`` holds the reading commands (validate) and
the shared option helpers; ``metrics`` agree/score/compare; ``project`` the project sub-commands;
``report`` the HTML report; ``gui`` opens the window (the only place the CLI touches Qt, imported
lazily). Modules here may import ``app``, ``io`` and ``core``; nothing below imports ``cli``.
"""
