"""The `kotc` command: the only package that prints or parses arguments."""
