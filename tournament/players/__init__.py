"""The players' files: a CSV or XLSX player file read without the database (within the
bounds of ``workbook_bounds``), its preview against the stored players, names (first and
last names, pinyin order and search), and EMA numbers and countries as the federation writes
them (``federation``)."""
