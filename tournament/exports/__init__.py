"""What leaves the hall: the standings workbook, the EMA's results file, the series'
workbook, and the streaming .xlsx writer they share; built from the selectors' reads."""
