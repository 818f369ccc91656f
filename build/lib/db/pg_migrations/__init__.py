"""PostgreSQL migrations: the same schema as ``db/migrations``, in PostgreSQL terms."""
