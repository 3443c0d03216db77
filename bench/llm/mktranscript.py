#!/usr/bin/env python3
"""mktranscript.py SAMPLE - writes bench/llm/SAMPLE.jsonl, a transcript that
bench/llm_replay.sh replays through `ktc optimize --planner llm --replay`.

The answers are written by hand, as a model would answer (no LLM server is
reachable where ktc is built); the header line says so. Each exchange is an
HTTP 200 chat-completion answer whose content is one proposal
(docs/llm.md). The requests are not recorded (null): a replay sends none.

- gelu_and_mul: a new body under EARLY_Y, a parameter the catalogue does
  not have (the up half's load issued with the gate's, kept there by a
  block-scope fence after both loads, the math untouched; the loop written
  for any grid height so the catalogue's row split composes with it), then
  the catalogue's row split, then done.
- per_token_group_quant_fp8: a new body under ONCE, which the catalogue
  does not have (each lane reads its part of the group once and keeps it
  in registers for the quantisation, and writes a vector's eight fp8 bytes
  in one store; the math is the original's), then done.

    python3 bench/llm/mktranscript.py gelu_and_mul > bench/llm/gelu_and_mul.jsonl
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sample = sys.argv[1] if len(sys.argv) > 1 else "gelu_and_mul"


def body(name):
    return open(os.path.join(here, name)).read().rstrip("\n")


if sample == "gelu_and_mul":
    answers = [
        {"kind": "variant", "param": "EARLY_Y",
         "body": body("gelu_and_mul.early.cu"),
         "why": "as written, ptxas sinks the load of the up half below the "
                "erfs (y is needed only after them): a second DRAM round "
                "trip per vector. A block-scope fence right after the two "
                "loads keeps both issued together; the math is the "
                "original's, so the outputs are bit for bit the same, "
                "special values included. The loop strides by gridDim.y so "
                "a row split still applies"},
        {"kind": "refactor", "refactor": "row_split", "param": "SPLIT",
         "why": "one block per token leaves most SMs idle at decode sizes"},
        {"kind": "done",
         "why": "the prefill shapes are near the copy bandwidth"},
    ]
elif sample == "per_token_group_quant_fp8":
    answers = [
        {"kind": "variant", "param": "ONCE",
         "body": body("per_token_group_quant_fp8.once.cu"),
         "why": "each lane reads its 16 bytes of the group twice (for the "
                "absmax, then to quantise) and writes its eight fp8 bytes "
                "one at a time: eight 1-byte store instructions per lane. "
                "Kept in registers after the first read, the group is read "
                "once, and the eight bytes go out in one 8-byte store; the "
                "math is the original's"},
        {"kind": "done",
         "why": "the prefill shapes are near the copy bandwidth"},
    ]
else:
    sys.exit("mktranscript.py: no transcript for '%s'" % sample)
print(json.dumps({"ktc_llm_transcript": 1, "model": "hand-written",
                  "note": "answers written by hand as a model would answer; "
                          "see bench/llm/mktranscript.py"}))
for n, a in enumerate(answers, 1):
    chat = {"object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant",
                                     "content": json.dumps(a)}}],
            "usage": {"total_tokens": 0}}
    print(json.dumps({"n": n, "request": None, "status": 200,
                      "content_type": "application/json",
                      "answer": json.dumps(chat)}))
