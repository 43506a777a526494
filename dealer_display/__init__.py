"""The dealer display: dealer, public table and training views served by FastAPI."""
