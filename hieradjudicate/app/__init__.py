"""Qt-free application layer: sessions, cached statistics, commands."""
