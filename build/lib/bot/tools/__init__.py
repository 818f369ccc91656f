"""Offline tools: play in a terminal, draw boards to files, run the benchmarks."""
