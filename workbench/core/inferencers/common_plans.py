"""The plans of the inferencers most configs use: GenInferencer (and its GLMChoice/LMMGen
family), PPL/LL, CLP, ChatInferencer and AISBench's MultiTurnGenInferencer.

The rarer inferencers build on these in :mod:`.generation_plans` and :mod:`.likelihood_plans`.
May import: :mod:`.plan`, :mod:`.likelihood_plans` (CLP asks which model classes score), the top
of ``workbench.core``, ``templates``, ``models``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from typing import Any

from ..errors import RenderError
from ..models.meta_template import to_chat_messages
from ..models.model_input import API, CHAT, LM
from ..render_notes import AIS_VERSION, OC_VERSION, Notes
from ..result import Request
from ..templates.aisbench_templates import MMPromptTemplate, MultiTurnPromptTemplate, round_bounds
from ..templates.prompt_list import PromptList, PromptType
from ..templates.raw_prompt_template import RawPromptTemplate
from .likelihood_plans import implements
from .plan import Engine, Plan
from .truncation import fit_examples


class GenPlan(Plan):
    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        template = engine.prompter.main  # type: ignore[union-attr]
        replace = self.cfg.get("gen_field_replace_token", "") or ""
        if isinstance(template, MMPromptTemplate):
            row = engine.test_row(index)
            prompt: PromptType = template.generate_mm(engine.test_pairs(index), row.get("content"))
            return [Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "gen"))]
        if engine.prompter.raw:  # type: ignore[union-attr]
            if engine.limiter is not None:
                self.notes.warn(
                    "max_seq_len with RawPromptTemplate messages: OpenCompass measures the str() of "
                    "each parsed message, which the workbench does not reproduce; every in-context "
                    "example is kept"
                )
            prompt = engine.gen_prompt(index, ice_idx, replace)
            if self.cfg.get("multiround"):
                return multiround_requests(engine, index, prompt, self.notes)
            return [Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "gen"))]
        if self.cfg.get("multiround"):
            engine.model.parse(engine.gen_prompt(index, ice_idx, replace), "gen")  # parsed_entries
            self.notes.warn(
                f"{self.name}(multiround=True) answers the empty assistant messages of "
                "RawPromptTemplate messages, and this prompt is not raw messages, so no request "
                "is sent"
            )
            return []

        def build(idx: Sequence[int]) -> PromptType:
            return engine.prompter.for_gen(  # type: ignore[union-attr]
                engine.test_pairs(index), engine.ice(idx), engine.output_column, replace,
            )

        prompt, cut = fit_examples(engine.limiter, ice_idx, build, "gen")
        return [Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "gen"),
                        truncation=cut)]


def multiround_requests(engine: Engine, index: int, chat: list, notes: Notes) -> list[Request]:
    """GenInferencer(multiround=True): each empty assistant message of raw messages, in turn.

    The history of turn k holds the model's answers to turns 0..k-1 (stand-ins or
    ``--run RUN_DIR``), as ``_generate_multiround`` writes each answer back into the chat.
    """
    if engine.model.kind == LM:
        # GenInferencer parses every prompt before generating (parsed_entries), and a local
        # model's LMTemplateParser fails on raw messages there, even with nothing to answer.
        engine.model.parse(chat, "gen")
    chat = [dict(m) if isinstance(m, dict) else m for m in chat]
    slots = [i for i, m in enumerate(chat)
             if isinstance(m, dict) and m.get("role") == "assistant" and not m.get("content", "")]
    if not slots:
        notes.warn("multiround=True answers the empty assistant messages, and these messages have "
                   "none, so no request is sent")
        return []
    out = []
    for turn, i in enumerate(slots):
        history = chat[:i]
        out.append(Request(prompt_list=history, model_input=engine.model.parse(history, "gen"),
                           turn=turn, depends_on=tuple(range(turn))))
        chat[i] = {**chat[i], "content": engine.output(index, turn)}
    return out


class CLPPlan(Plan):
    def check(self, engine: Engine) -> None:
        model = engine.model
        is_api = model.info.is_api if model.info is not None else model.kind == API
        if is_api:
            raise RenderError(
                "API model is not supported for conditional log probability inference and skip "
                "this exp.",
                hint="CLPInferencer needs a local model",
            )
        # (the real run reads the choices before it scores them with the logits)
        rows = engine.all_test_rows()
        failure = _unusable_choices(rows[0]) if rows else None
        if failure:
            raise RenderError(
                f"CLPInferencer takes the choices it scores from the first test row's 'choices' "
                f"column, and {failure}",
                hint="give every test row a 'choices' list of the candidate answers (OpenCompass's "
                "CivilCommentsDataset adds ['no', 'yes'])",
            )
        if model.spec is not None and not implements(model, "get_logits"):
            raise RenderError(
                f"'{model.class_name}' object has no attribute 'get_logits' (AttributeError: "
                "CLPInferencer scores the choices with the model's logits)",
                hint="CLPInferencer needs a local model class with get_logits, e.g. HuggingFaceCausalLM",
            )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        def build(idx: Sequence[int]) -> PromptType:
            return engine.prompter.for_gen(engine.test_pairs(index), engine.ice(idx),  # type: ignore[union-attr]
                                           engine.output_column, "")

        cut = None
        if engine.limiter is None:
            prompt = build(ice_idx)
        else:
            prompt, cut = engine.limiter.fit_clp(ice_idx, build, lambda p: engine.model.parse(p, "gen"))
            if cut.dropped and not isinstance(prompt, str):
                self.notes.framework_fails(
                    OC_VERSION,
                    "CLPInferencer measures the unparsed PromptList with get_token_len after dropping an "
                    "in-context example, and the tokenizer cannot encode a list",
                    "the shortened prompt parsed as usual",
                )
        choices = engine.test_row(0).get("choices")
        extra = (("choices", list(choices)),) if isinstance(choices, list) else ()
        return [Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "gen"), extra=extra,
                        truncation=cut)]


def _unusable_choices(row: Mapping[str, Any]) -> str | None:
    """Why CLPInferencer's ``test_ds[0]['choices']`` stops the real run on ``row`` (None: it does not)."""
    if "choices" not in row:
        return "these rows have no such column (the real run stops with KeyError: 'choices')"
    choices = row["choices"]
    if not isinstance(choices, Iterable):
        return (f"the first row's is {type(choices).__name__}, not a list (the real run stops with "
                "TypeError when it tokenizes each choice)")
    if isinstance(choices, Sized) and len(choices) == 0:
        return "the first row's is empty (the real run stops with IndexError: list index out of range)"
    return None


class LabelPlan(Plan):
    """PPL and LL: one request per label."""

    parse_mode = "ppl"

    def check(self, engine: Engine) -> None:
        refusal = engine.model.ppl_refusal()
        if engine.model.info is None and engine.model.kind in (API, CHAT):
            refusal = f"{engine.model.kind} models cannot do PPL"
        if refusal:
            raise RenderError(
                refusal,
                hint=f"{self.name} scores each label with the model's own likelihoods; "
                "use a GenInferencer config for API and chat-template models",
            )
        labels = self.cfg.get("labels")
        if labels and not isinstance(labels, (list, tuple)):
            raise RenderError(f"{self.name}: labels must be a list, got {labels!r}",
                              hint="e.g. labels=['A', 'B', 'C', 'D'], or leave them to the template")
        self._labels = list(labels) if labels else engine.prompter.labels(  # type: ignore[union-attr]
            engine.all_test_rows(), engine.output_column)
        main = engine.prompter.main  # type: ignore[union-attr]
        if main.prompt_type == "meta" and not labels:
            self.notes.warn(
                f"{self.name} with a dialogue template (not a label dict): the framework takes "
                f"the template's keys {list(main.raw)} as the labels, so every request is alike"
            )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        out = []
        # OpenCompass writes the shortened example list back into ice_idx_list[idx], so each
        # label starts from what the labels before it kept.
        current = list(ice_idx)
        for label in self._labels:
            def build(idx: Sequence[int], label: Any = label) -> PromptType:
                return engine.prompter.for_label(engine.test_pairs(index), engine.ice(idx),  # type: ignore[union-attr]
                                                 label, row=engine.test_row(index),
                                                 origin=engine.row_origin())

            prompt, cut = fit_examples(engine.limiter, ice_idx, build, "ppl", start=current)
            if cut is not None:
                current = list(cut.kept)
            extra: tuple = ()
            if self.name == "LLInferencer":
                row = engine.test_row(index)
                if "cont" not in row:
                    raise RenderError("LLInferencer reads each test row's 'cont' column, and it is missing")
                extra = (("continuation", row["cont"]),)
            out.append(Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "ppl"),
                               label=label, extra=extra, truncation=cut))
        return out


def _turn_requests(engine: Engine, index: int, head: list, body: list, tail: list,
                   mode: str, assistant: str, role_key: str, text_key: str,
                   make_input: Callable[[list], Any], notes: Notes,
                   framework: str) -> list[Request]:
    """every / every_with_gt / last over a dialogue whose answers are ``assistant`` turns."""
    if mode not in ("every", "every_with_gt", "last"):
        raise RenderError(f"infer_mode must be every, every_with_gt or last, not {mode!r}")
    bots = [i for i, item in enumerate(body) if isinstance(item, dict) and item.get(role_key) == assistant]
    if not bots:
        if mode == "last":
            raise RenderError(
                f"infer_mode='last' answers the last {assistant} turn, and the prompt has none "
                "(IndexError: list index out of range)",
                hint=f"the template's round should end with a {assistant} turn",
            )
        # every / every_with_gt loop over no turns: the framework sends nothing.
        notes.warn(f"the prompt has no {assistant} turn, so infer_mode={mode!r} sends no request")
        return []
    chat = [dict(item) if isinstance(item, dict) else item for item in body]
    if mode == "last":
        history = chat[: bots[-1]]
        prompt = PromptList(head + history + tail)
        # `turn` is the index of the answer the request asks for, in every mode.
        return [Request(prompt_list=prompt, model_input=make_input(prompt), turn=len(bots) - 1)]
    out = []
    for turn, i in enumerate(bots):
        prompt = PromptList(head + [dict(x) if isinstance(x, dict) else x for x in chat[:i]] + tail)
        depends = tuple(range(turn)) if mode == "every" else ()
        out.append(Request(prompt_list=prompt, model_input=make_input(prompt), turn=turn,
                           depends_on=depends))
        if mode == "every":
            chat[i][text_key] = engine.output(index, turn)
    return out


class MultiTurnPlan(Plan):
    """AISBench MultiTurnGenInferencer."""

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        template = engine.prompter.main  # type: ignore[union-attr]
        row = engine.test_row(index)
        if isinstance(template, MultiTurnPromptTemplate):
            prompt = template.generate_multiturn(row, engine.provenance)
        else:
            prompt = engine.prompter.for_gen(engine.test_pairs(index), engine.ice(ice_idx),  # type: ignore[union-attr]
                                             engine.output_column,
                                             self.cfg.get("gen_field_replace_token", "") or "")
            if isinstance(prompt, str):
                raise RenderError("MultiTurnGenInferencer needs a dialogue template")
        mode = self.cfg.get("infer_mode", "every")
        if mode == "last":
            self.notes.framework_fails(
                AIS_VERSION,
                "RecursionError: MultiTurnGenInferencer.infer_last adds a list to a PromptList, "
                "which recurses forever",
                "one request with every turn but the last answer",
            )
        left, right = round_bounds(prompt)
        head, body, tail = list(prompt[:left]), list(prompt[left:right]), list(prompt[right:])
        return _turn_requests(engine, index, head, body, tail, mode, "BOT", "role", "prompt",
                              lambda p: engine.model.parse(p, "gen"), self.notes, AIS_VERSION)


#: OpenCompass 0.5.4's ChatInferencer.infer_every_with_gt adds 1 to the sample index per turn
#: (``index += 1``), so turn k of sample i is filed under sample i+k, after what is there.
EVERY_WITH_GT_MIXED = ("OpenCompass 0.5.4's ChatInferencer (every_with_gt) files turn k of sample i "
                       "under sample i+k, so its records mix samples")


class ChatPlan(Plan):
    """OpenCompass ChatInferencer: rows become OpenAI-style chats, parsed its own way."""

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        chat = self._chat(engine, engine.test_row(index))
        mode = self.cfg.get("infer_mode", "last")
        return _turn_requests(engine, index, [], chat, [], mode, "assistant", "role", "content",
                              lambda history: self._input(engine, history), self.notes, "")

    def _chat(self, engine: Engine, row: Mapping[str, Any]) -> list[dict]:
        inputs, output = list(engine.input_columns), engine.output_column
        item = {k: v for k, v in row.items() if k in inputs or k == output}
        template = engine.prompt_template

        def from_entry(entry: Mapping[str, Any]) -> list[dict]:
            if template is None and len(inputs) == 1:
                return [{"role": "user", "content": entry.get(inputs[0])},
                        {"role": "assistant", "content": entry.get(output, "")}]
            if template is not None:
                pairs = [("{" + str(k) + "}", v if isinstance(v, str) else str(v)) for k, v in entry.items()]
                if isinstance(template, RawPromptTemplate):
                    prompt: Any = template.generate_item(pairs, entry)
                else:
                    prompt = template.generate_item(pairs)
                chat = _to_openai(prompt, self.notes)
                if not chat or chat[-1]["role"] != "assistant":
                    chat.append({"role": "assistant", "content": entry.get(output, "")})
                return chat
            raise RenderError("ChatInferencer: no prompt_template and more than one input column")

        if all(isinstance(v, str) for v in item.values()):
            return from_entry(item)
        if all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in item.values()):
            entries = [dict(zip(item, values)) for values in zip(*item.values())]
            return [m for e in entries for m in from_entry(e)]
        if len(inputs) == 1 and isinstance(item.get(inputs[0]), list) and all(
                isinstance(x, dict) for x in item[inputs[0]]):
            return _chat_messages(item[inputs[0]], inputs[0])
        if "dialogue" in inputs:
            return _chat_messages(item.get("dialogue"), "dialogue")
        raise RenderError("Cannot construct chat from the dataset.",
                          hint="ChatInferencer wants string columns, lists of strings, or a chat")

    def _input(self, engine: Engine, history: list[dict]) -> Any:
        """ChatInferencer swaps in its own parsers for chats ({role, content} lists)."""
        meta = engine.model.meta_template
        roles: dict[str, dict] = {}
        mapping = {"SYSTEM": "system", "HUMAN": "user", "BOT": "assistant"}
        if meta:
            for item in [*meta.get("round", []), *meta.get("reserved_roles", [])]:
                if isinstance(item, dict):
                    roles[mapping.get(item["role"], item["role"])] = dict(item)
        if engine.model.kind == LM:
            out = ""
            if roles:
                for m in history:
                    cfg = roles.get(m["role"], {})
                    out += (cfg.get("begin") or "") + (m.get("content") or "") + (cfg.get("end") or "")
                if "assistant" not in roles:
                    raise RenderError(
                        "ChatInferencer needs a BOT role in the meta template (KeyError: 'assistant')")
                out += roles["assistant"].get("begin") or ""
            else:
                sep = ""
                for m in history:
                    out += sep + (m.get("content") or "")
                    sep = "\n"
            return out
        if not meta:
            roles = {"system": {"api_role": "SYSTEM"}, "user": {"api_role": "HUMAN"},
                     "assistant": {"api_role": "BOT", "generate": True}}
        messages = PromptList(
            {"role": roles[m["role"]]["api_role"] if m["role"] in roles else m["role"],
             "prompt": m.get("content") or ""}
            for m in history
        )
        if engine.model.kind == CHAT:
            return to_chat_messages(messages)
        return messages


def _chat_messages(value: Any, column: str) -> list[dict]:
    """A row's ready-made chat, checked: the framework indexes each message's role and content."""
    if not isinstance(value, list) or not all(
            isinstance(m, Mapping) and isinstance(m.get("role"), str)
            and isinstance(m.get("content"), (str, type(None))) for m in value):
        raise RenderError(
            f"ChatInferencer reads the row's {column!r} column as a chat, and it is not a list of "
            "{'role': str, 'content': str} dicts",
            hint="give the column a list of messages such as {'role': 'user', 'content': '...'}",
        )
    return [dict(m) for m in value]


def _to_openai(prompt: PromptType, notes: Notes) -> list[dict]:
    """ChatInferencer's promptlist_to_openai."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    out: list[dict] = []
    roles = {"SYSTEM": "system", "HUMAN": "user", "BOT": "assistant"}
    for item in prompt:
        if "section" in item:
            # The framework tests `'section' in item` before the item's type, so a string
            # item that merely contains the word is dropped too.
            if isinstance(item, str):
                notes.warn(f"ChatInferencer drops the string item {item[:40]!r}: it contains "
                           "'section', which the framework takes for a section marker")
            continue
        if isinstance(item, str):
            if item:
                out.append({"role": "user", "content": item})
        elif isinstance(item.get("role"), str) and item["role"] in roles:
            out.append({"role": roles[item["role"]], "content": item.get("prompt")})
    return out

