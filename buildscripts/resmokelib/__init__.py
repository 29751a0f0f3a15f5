"""The parts of buildscripts/resmoke.py that suites share: processes, ports, fixtures."""
