"""What the chapters use to show and record results: numbers in prose, figures, recorded results."""
