"""HTTP test-control endpoints (POST /_test/<action> with a JSON body) for manual runs.

Tests use the Python methods directly; these exist so that a fake started with
``python -m tests.support.fakeapi`` can be driven with curl. Users and chats are named by id,
messages by chat_id + message_id (inline messages by inline_message_id), inline queries by
query_id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import JSON, FakeMessage

if TYPE_CHECKING:
    from .server import FakeTelegramAPI


def _message_dict(m: FakeMessage) -> JSON:
    out = m.to_dict() | {"deleted": m.deleted, "edits": len(m.history)}
    if m.inline_message_id is not None:
        out["inline_message_id"] = m.inline_message_id
    return out


def dispatch(api: FakeTelegramAPI, action: str, body: dict[str, Any]) -> Any:
    """Run one control action; raises KeyError/ValueError/TypeError on bad input."""
    if action == "state":
        return {
            "users": [u.to_dict() for u in api.users.values()],
            "chats": [c.to_dict() | {"bot_status": c.bot_status} for c in api.chats.values()],
            "pending_updates": len(api.pending_updates),
            "calls": dict(api.call_counts()),
        }
    if action == "add_user":
        return api.add_user(**body).to_dict()
    if action == "create_group":
        return api.create_group(**body).to_dict()
    if action == "create_topic":
        return api.create_topic(body.pop("chat_id"), **body)
    if action == "messages":
        return [_message_dict(m) for m in api.messages(body["chat_id"], include_deleted=True)]
    if action == "send_message":
        return _message_dict(api.send_message(body.pop("user_id"), body.pop("chat_id"), **body))
    if action == "send_command":
        return _message_dict(api.send_command(body.pop("user_id"), body.pop("chat_id"), **body))
    if action == "press_button":
        msg = api.message(body.pop("chat_id"), body.pop("message_id"))
        return api.press_button(body.pop("user_id"), msg, **body).id
    if action == "callback_answer":
        return api.callback_answer(body["query_id"])
    if action == "set_inline_mode":
        api.set_inline_mode(**body)
        return True
    if action == "user_chat":
        return {"id": api.user_chat(body["user_id"], body["other_id"]).id}
    if action == "inline_query":
        return api.inline_query(body.pop("user_id"), **body).id
    if action == "inline_answer":
        query = api.inline_queries[body["query_id"]]
        return None if query.answer is None else query.answer | {
            "results": [r.raw for r in query.results]}
    if action == "choose_inline_result":
        return _message_dict(api.choose_inline_result(
            body["user_id"], body["query_id"], body["result_id"], body["chat_id"]))
    if action == "inline_message":
        return _message_dict(api.inline_message(body["inline_message_id"]))
    if action == "press_inline_button":
        msg = api.inline_message(body.pop("inline_message_id"))
        return api.press_button(body.pop("user_id"), msg, **body).id
    if action == "delete_inline_message":
        api.delete_inline_message(body["inline_message_id"])
        return True
    if action == "kick_bot":
        api.kick_bot(body["chat_id"], body.get("by"))
        return True
    if action == "delete_message":
        api.delete_message(body["chat_id"], body["message_id"])
        return True
    if action == "inject_rate_limit":
        api.inject_rate_limit(**body)
        return True
    if action == "inject_network_failure":
        api.inject_network_failure(**body)
        return True
    raise KeyError(f"unknown action {action!r}")
