"""The real-question benchmark: real PDFs, questions checked on their rendered pages."""
