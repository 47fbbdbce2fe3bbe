"""The duel's pictures: the table, the reveal of a bullet, the result."""
