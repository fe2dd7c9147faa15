"""What leaves the hall: the standings workbook, the EMA's results file, the streaming .xlsx
writer they share, and the EMA numbers and countries as the federation writes them."""
