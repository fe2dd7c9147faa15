"""Chinese and English: the catalogue kept in step with the source, the cores' errors and the
fan names in the reader's language, how table points and winds are written."""
