"""Team mode: a project on a PostgreSQL server (psycopg 3, the optional ``team`` extra).

Nothing here is imported for a ``.hadj`` file: a single user needs no database driver.
"""
