"""The generator's parts (generate.py runs them): the names and text of the generated code (text), the TypedDicts
of the schemas (models), the operations of the document (operations), the exception classes (errors) and the
resource classes (resources)."""
