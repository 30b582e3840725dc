"""What every family stands on: the base classes (``base``), the checks of
the input at the boundary and the one CSR type (``validation``), the
threads (``parallel``), scikit-learn's stopping rule (``stopping``),
scikit-learn's machinery where it is installed
(``sklearn_compat``) and the type aliases of the public API (``typing``)."""
