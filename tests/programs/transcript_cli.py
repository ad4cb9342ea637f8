"""A tiny agent CLI that keeps a Claude-format transcript, for tests of the
transcript path without the genuine CLI (shim, integration).

    transcript_cli.py --session-id ID      a new session
    transcript_cli.py --resume ID          continue: prints what it remembers

It writes $HOME/proj/ID.jsonl as Claude Code does (a user record, assistant
records, a system turn_duration record per turn) and shows each answer as
`● <first line>` with the rest indented, then its prompt `❯ `."""
import json
import os
import sys

mode, sid = sys.argv[1], sys.argv[2]
path = os.path.join(os.environ["HOME"], "proj", sid + ".jsonl")
os.makedirs(os.path.dirname(path), exist_ok=True)
if mode == "--resume" and not os.path.exists(path):
    print("No conversation found with session ID: %s" % sid)
    sys.exit(1)


def record(obj):
    with open(path, "a") as f:
        f.write(json.dumps(obj) + "\n")


def answer(prompt):
    """Markdown, a tool call for prompts starting with 'tool:'."""
    if prompt.startswith("tool:"):
        return "The tool said **%s**." % prompt[5:].strip(), prompt[5:].strip()
    return "## You said\n\n- `%s`" % prompt, None


n = 0
while True:
    sys.stdout.write("❯ ")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        break
    prompt = line.strip()
    n += 1
    text, tool = answer(prompt)
    record({"type": "user", "message": {"role": "user", "content": prompt}, "sessionId": sid})
    record({"type": "mystery-record", "sessionId": sid})  # unknown types are skipped
    if tool:
        record({"type": "assistant", "message": {"id": "m%da" % n, "model": "fake-model", "role": "assistant",
                "content": [{"type": "tool_use", "id": "t%d" % n, "name": "Bash", "input": {"command": "echo " + tool}}],
                "usage": {"input_tokens": 5, "output_tokens": 3}}})
        record({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t%d" % n, "content": tool, "is_error": False}]}})
    record({"type": "assistant", "message": {"id": "m%d" % n, "model": "fake-model", "role": "assistant",
            "content": [{"type": "text", "text": text}], "usage": {"input_tokens": 7, "output_tokens": 11}}})
    record({"type": "system", "subtype": "turn_duration", "durationMs": 1})
    rows = text.split("\n")
    sys.stdout.write("● " + rows[0] + "\n" + "".join("  " + r + "\n" for r in rows[1:]))
