"""Six-card poker against the dealer in Telegram: the casino balance, the game's life in
storage (`game`), its message (`present`, `captions`, `keyboards`) and the command's
arguments (`args`). The rules are `rules.sixcard`'s; nothing here decides a hand."""
