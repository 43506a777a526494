"""Card recognition: find the card in a camera frame, read its index corners,
and answer "unsure" rather than guess."""
