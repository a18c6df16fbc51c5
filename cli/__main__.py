try:  # (Ctrl-C as the command's own first module loads: one line, as cli.entry does later)
    from cli.entry import main
except KeyboardInterrupt:
    import sys

    sys.stderr.write("\ncryptcrawl: interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
