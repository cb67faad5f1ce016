"""The ``privbook`` command: papermill runs of the chapters, sweeps over parameter grids, the CLI."""
