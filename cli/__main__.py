try:  # (Ctrl-C as the command's own first module loads: one line, as cli.entry does later)
    from cli.entry import main
except KeyboardInterrupt:
    import sys

    sys.stderr.write("\ncryptcrawl: interrupted\n")
    # CPython notes a KeyboardInterrupt that left code run by exec (a dataclass being made)
    # and kills the process with SIGINT at exit; running text again clears the note (as
    # cli.main does), so the status is 130.
    exec("None")
    raise SystemExit(130) from None

raise SystemExit(main())
