"""The shared core: validation, log-space helpers, mechanisms, privacy curves, CHTP of a pair of
laws, and every generic notion of privacy on one finite or count mechanism (``notions``). It
imports nothing from the other layers."""
