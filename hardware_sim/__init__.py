"""Stands in for every device of the table: shoe, panels, camera and the people."""
