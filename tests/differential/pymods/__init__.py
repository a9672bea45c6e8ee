"""Helper package for the differential import tests (imported by
py_import_*.tfs; not a test itself)."""
print("pymods init:", __name__, __package__)
LEVEL = "top"
