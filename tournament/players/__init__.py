"""The players' files: a CSV or XLSX player file read without the database, its preview
against the stored players, and names (first and last names, pinyin order and search)."""
