#!/usr/bin/env python3
"""mktranscript.py - writes bench/llm/gelu_and_mul.jsonl, the transcript that
bench/llm_replay.sh replays through `ktc optimize --planner llm --replay`.

The answers are written by hand, as a model would answer (no LLM server is
reachable where ktc is built); the header line says so. Each exchange is an
HTTP 200 chat-completion answer whose content is one proposal
(docs/llm.md): a new body for gelu_and_mul_kernel under a parameter the
catalogue does not have (EARLY_Y: the up half's load issued with the gate's,
kept there by a block-scope fence after both loads, the math untouched; the
loop written for any grid height so the catalogue's row split composes with
it),
then the catalogue's row split, then done. The requests are not recorded
(null): a replay sends none.

    python3 bench/llm/mktranscript.py > bench/llm/gelu_and_mul.jsonl
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
body = open(os.path.join(here, "gelu_and_mul.early.cu")).read().rstrip("\n")
answers = [
    {"kind": "variant", "param": "EARLY_Y", "body": body,
     "why": "as written, ptxas sinks the load of the up half below the "
            "erfs (y is needed only after them): a second DRAM round trip "
            "per vector. A block-scope fence right after the two loads "
            "keeps both issued together; the math is the original's, so "
            "the outputs are bit for bit the same, special values "
            "included. The loop strides by gridDim.y so a row split "
            "still applies"},
    {"kind": "refactor", "refactor": "row_split", "param": "SPLIT",
     "why": "one block per token leaves most SMs idle at decode sizes"},
    {"kind": "done", "why": "the prefill shapes are near the copy bandwidth"},
]
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
