"""The `cryptcrawl` command line and terminal UI."""
