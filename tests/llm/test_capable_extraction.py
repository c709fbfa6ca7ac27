"""Extraction with a capable model (over the real SDK against the fake server): the technique
of the question is explained, the label length is one rule, a sentence-long label stays out
of the graph, an edge stated the other way round is turned rather than lost, and JSON a model
writes as text (fenced, or inside prose) is read without a corrective round, which, when one
is needed, shows the model its own reply."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from capable_model import capable_defaults, edge, extraction, node, remote_llm, run_closed
from conftest import REPO
from fakeserver import FakeLLMServer, Step

from interview_cli.config.loader import load_concept, load_methodology
from interview_cli.core.models import REVERSED_EDGE
from interview_cli.llm.protocol import ExtractRequest, NodeContext

MEC = load_methodology(REPO / "methodologies" / "means_end_chain.yaml").value
HEADPHONES = load_concept(REPO / "concepts" / "headphones_mec.yaml").value
ANSWER = (
    "I suppose someone like me would miss the quiet, honestly, because without it I'd never "
    "get any time to myself on the train"
)
LONG_LABEL = (
    "the feeling of being able to finally get some proper time to myself on the packed "
    "morning train into work without hearing everyone else around me talking"
)


def request(**extra: Any) -> ExtractRequest:
    return ExtractRequest(
        methodology=MEC,
        concept=HEADPHONES,
        answer=ANSWER,
        utterance_id="u004",
        question="Why might someone like you care about the noise cancelling?",
        strategy="third_person",
        focus_label="noise cancelling",
        focus_type="attribute",
        existing_labels=["noise cancelling", "focus on the train"],
        existing_nodes=[
            NodeContext(label="noise cancelling", node_type="attribute", quote="the noise"),
            NodeContext(
                label="focus on the train", node_type="functional_consequence", quote="focus"
            ),
        ],
        **extra,
    )


def extract(server: FakeLLMServer, env: dict[str, str], *steps: Step) -> Any:
    capable_defaults(server)
    server.script_task("extract", *steps)
    llm = remote_llm(env)
    return run_closed(llm, llm.extract(request()))


@pytest.fixture
def sent(fake_server: FakeLLMServer, provider_env: dict[str, str]) -> dict[str, Any]:
    reply = extraction([node("time to myself", "terminal_value", "time to myself")])
    extract(fake_server, provider_env, Step(tool_input=reply))
    (one,) = fake_server.requests
    return one.body


def test_the_technique_is_explained(sent: dict[str, Any]) -> None:
    system, user = sent["messages"][0]["content"], sent["messages"][-1]["content"]
    third_person = " ".join(MEC.strategy("third_person").description.split())  # type: ignore[union-attr]
    assert f"The technique behind it: {third_person}" in user
    assert "why might someone like you care" in system.lower()
    assert "what would you miss" in system.lower()


def test_one_label_rule(sent: dict[str, Any]) -> None:
    system = sent["messages"][0]["content"]
    schema = sent["tools"][0]["function"]["parameters"]
    label = schema["properties"]["nodes"]["items"]["properties"]["label"]["description"]
    # The prompt defers to the methodology's naming convention, which agrees with its
    # one-word examples ("freedom", "happiness").
    assert not re.search(r"\b2-6 words\b", system + label)
    assert "1-6 words" in system and '"freedom"' in system
    assert "never longer than 10 words" in system and "never over 10 words" in label
    # No stimulus elements in this concept: no element_id or reaction to fill in.
    item = schema["properties"]["nodes"]["items"]
    assert "element_id" not in item["properties"] and "reaction" not in item["required"]


def test_a_sentence_long_label_stays_out(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    reply = extraction(
        [node(LONG_LABEL, "psychosocial_consequence", "time to myself on the train")],
        [edge("noise cancelling", LONG_LABEL, "without it I'd never get any time to myself")],
    )
    value = extract(fake_server, provider_env, Step(tool_input=reply)).value
    assert value.nodes == [] and value.edges == []
    assert value.rejected[0].reason == "label of 27 words (at most 10): a sentence, not a name"
    assert value.rejected[1].reason == f"endpoint '{LONG_LABEL}' was rejected"


def test_an_edge_stated_downward_is_turned_not_lost(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    reply = extraction(
        [node("time to myself", "terminal_value", "time to myself")],
        [
            # A value "because of" the focus, and one to an earlier concept shown typed.
            edge("time to myself", "noise cancelling", "without it I'd never get any time"),
            edge("time to myself", "focus on the train", "time to myself on the train"),
        ],
    )
    value = extract(fake_server, provider_env, Step(tool_input=reply)).value
    assert [(e.source, e.target, e.relation) for e in value.edges] == [
        ("noise cancelling", "time to myself", "leads_to"),
        ("focus on the train", "time to myself", "leads_to"),
    ]
    assert [r.reason.split(":")[0] for r in value.rejected] == [REVERSED_EDGE, REVERSED_EDGE]


@pytest.mark.parametrize(
    "content",
    [
        "```json\n{reply}\n```",
        "Here is the extraction:\n{reply}\nLet me know if you need anything else.",
    ],
)
def test_json_written_as_text_is_read_in_one_call(
    fake_server: FakeLLMServer, provider_env: dict[str, str], content: str
) -> None:
    reply = extraction([node("time to myself", "terminal_value", "time to myself")])
    result = extract(
        fake_server, provider_env, Step(content=content.replace("{reply}", json.dumps(reply)))
    )
    assert [n.label for n in result.value.nodes] == ["time to myself"]
    assert len(fake_server.requests) == 1 and not result.failures


def test_a_corrective_round_shows_the_model_its_own_reply(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    bad = 'nodes: [{"label": "time to myself", quote: time to myself}]'
    reply = extraction([node("time to myself", "terminal_value", "time to myself")])
    result = extract(fake_server, provider_env, Step(raw_arguments=bad), Step(tool_input=reply))
    assert [n.label for n in result.value.nodes] == ["time to myself"]
    second = fake_server.requests[1].body["messages"]
    assert second[-2] == {"role": "assistant", "content": bad}
