"""Six-card poker's picture: the table at any moment of a game."""
