"""What every game and command shares: the one shell loop (`live`), the one refusal type
(`refusal`), the handlers' helpers (`handlers`), the error handler (`errors`) and a chat's
life (`chats`: who is around, the bot leaving a chat, a group becoming a supergroup). It
knows no game: each game plugs itself in."""
